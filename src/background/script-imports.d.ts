/**
 * crxjs `?script` imports: the build emits the imported file as a content script and the import's value
 * is its path inside dist/, ready for chrome.scripting.executeScript({files}). Files listed in
 * vite.config.ts `contentScripts.standaloneFiles` are emitted as one self-contained classic script (IIFE).
 */
declare module '*?script' {
  const fileName: string;
  export default fileName;
}
