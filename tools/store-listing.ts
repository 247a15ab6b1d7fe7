/**
 * The store listings' words (pure; `npm run store-assets` writes them under store/, and a unit test checks
 * that what is there is what this makes now). What can be taken from the extension is taken from it, so
 * the listing stays true when the extension changes:
 *
 * - the short description is the manifest's (`extDescription` of public/_locales/<lang>), which the Chrome
 *   Web Store shows as the summary (at most 132 characters);
 * - the long description names the strategies by their labels in that language (the registry's first, the
 *   default, as the solver) and the keyboard shortcuts as the manifest suggests them, with the commands' own
 *   descriptions; tests/unit/docs/store.test.ts checks that it names every feature shipped;
 * - every permission the two builds ask for (manifest.json, build/firefox-manifest.ts) has its
 *   one-sentence justification here, or the listing cannot be made.
 *
 * The screenshots' headlines and the promotional tile's words are here too (tools/store-assets.ts).
 */
import { shortcutKeys } from '../src/ui/status-view';
import { STRATEGY_NAMES } from '../src/engine/types';

export const STORE_LANGUAGES = ['en', 'de'] as const;
export type StoreLanguage = (typeof STORE_LANGUAGES)[number];

/** The Chrome Web Store's limit for the summary (the manifest's description). */
export const SHORT_DESCRIPTION_MAX = 132;

/** What the listing reads from the extension's sources. */
export interface ListingSources {
  /** public/_locales/<lang>/messages.json */
  readonly messages: Readonly<Record<string, { readonly message: string }>>;
  /** manifest.json's commands. */
  readonly commands: Readonly<Record<string, { readonly suggested_key?: { readonly default?: string } }>>;
}

/** The description of each keyboard command, by the locale key the manifest names for it. */
const COMMAND_ORDER = ['toggle-solve', 'step', '_execute_action', 'open-panel'] as const;

interface Words {
  readonly intro: string;
  readonly bullets: (main: string, strategies: string, shortcuts: string) => readonly string[];
  readonly privacy: string;
  readonly openSource: string;
  readonly tagline: string;
  readonly shots: Readonly<Record<ShotName, { readonly title: string; readonly text: string }>>;
}

export const SHOT_NAMES = ['play', 'panel', 'coach', 'history'] as const;
export type ShotName = (typeof SHOT_NAMES)[number];

const WORDS: Record<StoreLanguage, Words> = {
  en: {
    intro:
      '2048 Autopilot plays 2048 by itself on the page you already play on: play2048.co, the classic game and its clones. Open a game, click the icon, press Solve, and watch it reach 2048 and far beyond. Or turn on the coach and play yourself, with the best move pointed out.',
    bullets: (main, strategies, shortcuts) => [
      'A strong solver: ' + main + ', a search compiled to WebAssembly that thinks in the background, so the page never stutters. It values positions with the learned network, trained by self-play and shipped inside the extension: nothing is downloaded. Other strategies to compare it with: ' + strategies + '.',
      'Solve, Stop, Step (one move) and Hint (the best move and the value of every move, without playing it). A key you press yourself pauses the autopilot at once.',
      'The side panel stays open beside the game: live charts of the score, the think time and the search depth; every game kept, with filters, a summary per strategy, export to JSON or CSV, and a replay of any game move by move.',
      'Coach mode: you play with your own keys; an arrow on the board shows the best move, each of your moves gets a grade (best, good, inaccuracy, mistake, blunder) and your game an accuracy.',
      'Keyboard shortcuts: ' + shortcuts + '.',
      'In English and German, with a dark theme.',
    ],
    privacy:
      'Private by design: it collects nothing. Your settings and your game history stay in your browser; it makes no network request, has no analytics, and runs only on the tab where you start it.',
    openSource: 'Open source, under the MIT licence.',
    tagline: 'Plays 2048 by itself, or coaches you',
    shots: {
      play: { title: 'Plays 2048 by itself', text: 'Open a game, click the icon, press Solve.' },
      panel: { title: 'Watch it think', text: 'The side panel: the score, the think time and the depth of every move, live.' },
      coach: { title: 'Coach mode: you play, it grades', text: 'An arrow shows the best move; each of your moves gets a grade.' },
      history: { title: 'Every game kept, replayed move by move', text: 'Filters, a summary per strategy, export to JSON or CSV.' },
    },
  },
  de: {
    intro:
      '2048 Autopilot spielt 2048 von selbst auf der Seite, auf der Sie ohnehin spielen: play2048.co, das klassische Spiel und seine Nachbauten. Spiel öffnen, auf das Symbol klicken, Lösen drücken – und zusehen, wie er 2048 erreicht und weit darüber hinaus. Oder schalten Sie den Trainer ein und spielen Sie selbst, mit dem besten Zug vor Augen.',
    bullets: (main, strategies, shortcuts) => [
      'Ein starker Löser: ' + main + ', eine Suche in WebAssembly, die im Hintergrund rechnet, sodass die Seite nie ruckelt. Die Stellungen bewertet das gelernte Netz, durch Selbstspiel trainiert und in der Erweiterung enthalten: nichts wird heruntergeladen. Weitere Strategien zum Vergleich: ' + strategies + '.',
      'Lösen, Stopp, Zug (ein einzelner Zug) und Tipp (der beste Zug und der Wert jedes Zuges, ohne ihn zu spielen). Eine Taste, die Sie selbst drücken, pausiert den Autopiloten sofort.',
      'Die Seitenleiste bleibt neben dem Spiel offen: Live-Diagramme von Punktzahl, Rechenzeit und Suchtiefe; jede Partie gespeichert, mit Filtern, einer Übersicht je Strategie, Export als JSON oder CSV und der Wiedergabe jeder Partie Zug für Zug.',
      'Trainer-Modus: Sie spielen mit Ihren eigenen Tasten; ein Pfeil auf dem Spielfeld zeigt den besten Zug, jeder Ihrer Züge wird bewertet (bester, guter, Ungenauigkeit, Fehler, grober Fehler) und Ihre Partie erhält eine Genauigkeit.',
      'Tastenkürzel: ' + shortcuts + '.',
      'Auf Deutsch und Englisch, mit dunklem Design.',
    ],
    privacy:
      'Datenschutz von Grund auf: Er erhebt keine Daten. Ihre Einstellungen und Ihre Partien bleiben in Ihrem Browser; er stellt keine Netzwerkanfragen, hat keine Statistik-Erfassung und läuft nur in dem Tab, in dem Sie ihn starten.',
    openSource: 'Quelloffen, unter der MIT-Lizenz.',
    tagline: 'Spielt 2048 von selbst – oder trainiert Sie',
    shots: {
      play: { title: 'Spielt 2048 von selbst', text: 'Spiel öffnen, auf das Symbol klicken, Lösen drücken.' },
      panel: { title: 'Sehen Sie ihm beim Denken zu', text: 'Die Seitenleiste: Punktzahl, Rechenzeit und Tiefe jedes Zuges, live.' },
      coach: { title: 'Trainer-Modus: Sie spielen, er bewertet', text: 'Ein Pfeil zeigt den besten Zug; jeder Ihrer Züge wird bewertet.' },
      history: { title: 'Jede Partie gespeichert, Zug für Zug abspielbar', text: 'Filter, eine Übersicht je Strategie, Export als JSON oder CSV.' },
    },
  },
};

/** Where the listing puts the extension: the Chrome Web Store's category and addons.mozilla.org's. */
export const CATEGORIES = { chromeWebStore: 'Lifestyle › Games', addonsMozillaOrg: 'Games & Entertainment' } as const;

/**
 * One sentence per permission either build asks for (the Chrome Web Store's privacy tab asks for each;
 * addons.mozilla.org reviewers read them too). Keyed by the manifest's names; host permissions by pattern.
 */
export const PERMISSION_JUSTIFICATIONS: Readonly<Record<string, string>> = {
  activeTab: 'Lets the extension read the 2048 board and play on the tab where the person starts it (toolbar icon, popup or keyboard shortcut), without access to any other site.',
  scripting: 'Injects the script that reads the game board and sends the moves into that tab, only when the person starts the autopilot or the coach there.',
  storage: "Keeps the person's settings and game history on their computer (storage.local) and the live status of a run for the popup and the side panel (storage.session).",
  offscreen: "Hosts the solver's Web Workers in an offscreen document of the extension, because a Manifest V3 service worker cannot start workers (Chrome only).",
  sidePanel: 'Shows the side panel with the live charts, the game history and the replays beside the game (Chrome only).',
  'https://*/*': 'Optional, asked for one site at a time when the person presses "Allow on this site", so that the autopilot can play there again after a reload or from a keyboard shortcut.',
  'http://*/*': 'Optional, asked for one site at a time when the person presses "Allow on this site", for the 2048 games served over plain HTTP.',
};

/** The Chrome Web Store's "single purpose" and its remote-code question. */
export const SINGLE_PURPOSE = 'Plays the browser game 2048 for the person, or coaches them while they play, on the page they choose.';
export const REMOTE_CODE = 'No remote code: every script and the WebAssembly solver ship in the package.';

/** The permissions of a manifest that need a justification (API permissions, host and optional host patterns). */
export function permissionsOf(manifest: { permissions?: readonly string[]; host_permissions?: readonly string[]; optional_host_permissions?: readonly string[] }): string[] {
  return [...(manifest.permissions ?? []), ...(manifest.host_permissions ?? []), ...(manifest.optional_host_permissions ?? [])];
}

function message(sources: ListingSources, key: string): string {
  const text = sources.messages[key]?.message;
  if (!text) throw new Error(`store listing: the locale has no message "${key}"`);
  return text;
}

export function words(language: StoreLanguage): Words {
  return WORDS[language];
}

/** The summary: the manifest's description in that language. */
export function shortDescription(sources: ListingSources): string {
  return message(sources, 'extDescription');
}

/** The long description, plain text (both stores take it; bullets as "•" lines). */
export function longDescription(language: StoreLanguage, sources: ListingSources): string {
  const w = WORDS[language];
  const [first, ...others] = STRATEGY_NAMES;
  const main = message(sources, `strategy_${first}`);
  const strategies = others.map((name) => message(sources, `strategy_${name}`)).join(', ');
  const commandKeys: Record<string, string> = { 'toggle-solve': 'cmdSolve', step: 'cmdStep', _execute_action: 'cmdPopup', 'open-panel': 'cmdPanel' };
  const shortcuts = COMMAND_ORDER.map((command) => {
    const keys = shortcutKeys(sources.commands[command]?.suggested_key?.default).join('+');
    return `${keys} ${message(sources, commandKeys[command]).replace(/^./, (c) => c.toLowerCase())}`;
  }).join('; ');
  return [w.intro, '', ...w.bullets(main, strategies, shortcuts).map((line) => `• ${line}`), '', w.privacy, '', w.openSource, ''].join('\n');
}

/** The words of the listing as files under store/ (path → content): what `npm run store-assets` writes. */
export function listingFiles(sourcesOf: (language: StoreLanguage) => ListingSources, manifests: { chrome: object; firefox: object }): Record<string, string> {
  const files: Record<string, string> = {};
  for (const language of STORE_LANGUAGES) {
    const sources = sourcesOf(language);
    files[`store/${language}/short-description.txt`] = `${shortDescription(sources)}\n`;
    files[`store/${language}/description.txt`] = longDescription(language, sources);
  }
  const permissions = [...new Set([...permissionsOf(manifests.chrome), ...permissionsOf(manifests.firefox)])];
  const missing = permissions.filter((p) => !(p in PERMISSION_JUSTIFICATIONS));
  if (missing.length > 0) throw new Error(`store listing: no justification for ${missing.join(', ')} (tools/store-listing.ts)`);
  const listing = {
    categories: CATEGORIES,
    singlePurpose: SINGLE_PURPOSE,
    remoteCode: REMOTE_CODE,
    dataCollected: 'none',
    privacyPolicy: 'PRIVACY.md',
    permissions: Object.fromEntries(permissions.map((p) => [p, PERMISSION_JUSTIFICATIONS[p]])),
    languages: Object.fromEntries(
      STORE_LANGUAGES.map((language) => [
        language,
        {
          shortDescription: `${language}/short-description.txt`,
          description: `${language}/description.txt`,
          screenshots: SHOT_NAMES.flatMap((shot, index) => SCREENSHOT_SIZES.map((size) => screenshotFile(language, index, shot, size))),
          promoTile: promoTileFile(language),
        },
      ]),
    ),
  };
  files['store/listing.json'] = `${JSON.stringify(listing, null, 2)}\n`;
  return files;
}

/** The stores' screenshot sizes (both stores take 1280x800; the Chrome Web Store also 640x400). */
export const SCREENSHOT_SIZES = [
  { width: 1280, height: 800 },
  { width: 640, height: 400 },
] as const;
/** The Chrome Web Store's small promotional tile. */
export const PROMO_TILE = { width: 440, height: 280 } as const;

/** "en/screenshot-1-play-1280x800.png" (relative to store/). */
export function screenshotFile(language: StoreLanguage, index: number, shot: ShotName, size: { width: number; height: number }): string {
  return `${language}/screenshot-${index + 1}-${shot}-${size.width}x${size.height}.png`;
}

export function promoTileFile(language: StoreLanguage): string {
  return `${language}/promo-tile-${PROMO_TILE.width}x${PROMO_TILE.height}.png`;
}
