/**
 * Main-world entry, injected by the background with chrome.scripting.executeScript({world: 'MAIN'})
 * right after the content script (src/content/index.ts), which leaves a fresh nonce on <html>.
 * Idempotent: it takes the nonce and removes the attribute, so a second injection finds none and does
 * nothing; a new content script (extension reloaded) leaves a new nonce and gets its own agent.
 */
import { NONCE_ATTRIBUTE, isNonce } from './bridge-protocol';
import { installPageAgent } from './page-agent';

(() => {
  const root = document.documentElement;
  const nonce = root.getAttribute(NONCE_ATTRIBUTE);
  if (!isNonce(nonce)) return;
  root.removeAttribute(NONCE_ATTRIBUTE);
  installPageAgent(window, nonce);
})();
