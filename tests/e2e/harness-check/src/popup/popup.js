/* Harness-check popup (test double, see ../../background.js). */
const tabId = Number(new URLSearchParams(location.search).get('tabId'));
const select = document.getElementById('strategy');

chrome.storage.local.get('settings').then(({ settings }) => {
  if (settings) select.value = settings.strategy;
});
select.addEventListener('change', async () => {
  const { settings } = await chrome.storage.local.get('settings');
  await chrome.storage.local.set({ settings: { ...settings, strategy: select.value } });
});

for (const button of document.querySelectorAll('button')) {
  button.addEventListener('click', async () => {
    const reply = await chrome.runtime.sendMessage({ kind: 'popup/command', tabId, command: button.textContent.toLowerCase() });
    if (reply && reply.hint) document.getElementById('hint').textContent = `Hint: ${reply.hint.move}`;
    if (reply && reply.ok === false) document.getElementById('hint').textContent = reply.error;
  });
}

setInterval(async () => {
  const key = `status:${tabId}`;
  const status = (await chrome.storage.session.get(key))[key];
  if (!status) return;
  document.getElementById('status').textContent =
    `${status.state} ${status.message ?? ''} · score ${status.score} · best ${status.bestTile} · moves ${status.moves}`;
}, 200);
