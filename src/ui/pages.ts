/**
 * The extension's own pages the popup and the side panel link to: the welcome page ("How it works") and
 * the documents page (release notes, privacy statement), each opened in a tab of its own.
 */
import { DOCUMENT_PAGE, WELCOME_PAGE } from '../shared/onboarding';
import { releaseAnchor } from '../shared/changelog';
import { browser } from '../platform/runtime';
import './pages.css';

/** The full URL of an extension page given by its path inside the package. */
function pageUrl(path: string): string {
  return browser.runtime.getURL(path);
}

/** The release notes, scrolled to `version`'s section. */
export function releaseNotesUrl(version: string): string {
  return pageUrl(`${DOCUMENT_PAGE}?doc=changelog#${releaseAnchor(version)}`);
}

/**
 * Make `link` open `url` in a new tab (an extension page's link would otherwise open in the popup or the
 * panel itself). `onOpen` runs first: a popup closes as soon as the new tab takes the focus.
 */
export function opensInTab(link: HTMLAnchorElement, url: string, onOpen?: () => void): void {
  link.href = url;
  link.addEventListener('click', (event) => {
    event.preventDefault();
    onOpen?.();
    void browser.tabs.create({ url }).catch(() => undefined);
  });
}

/** "How it works": every `a[data-page="welcome"]` under `root` opens the welcome page. */
export function linkHowItWorks(root: ParentNode): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-page="welcome"]')) opensInTab(link, pageUrl(WELCOME_PAGE));
}
