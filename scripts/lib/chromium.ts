/** Debian's Chromium, which Playwright and Lighthouse drive (neither may download a browser here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags every automated Chromium run gets: no sandbox as root, no GPU, and no calls to a network it cannot reach. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The font Chromium draws Chinese with here (Debian's fonts-noto-cjk, which `npm run setup` installs; Android draws
 * Chinese with the same family). Without it Chinese shows as boxes, and each page's first layout is slower than a
 * phone's, since Chromium searches every font for each missing glyph.
 */
export const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
