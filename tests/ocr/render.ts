/**
 * Renders the test set's messages as phone screenshots in Chromium (issue 35): chat, SMS, Facebook and
 * e-mail layouts, light and dark, at the screen sizes of common phones, some with the keyboard open,
 * and a few "photos of a screen" (the screenshot tilted, blurred, with glare and noise, saved as JPEG).
 */
import type { Browser } from 'playwright-core';
import { messageText, type Layout, type TestMessage } from './messages.ts';

export interface Phone {
  name: string;
  width: number;
  height: number;
  scale: number;
}

/** CSS pixels and device pixel ratio of phones common in the Philippines (1080-wide screens). */
export const PHONES: Phone[] = [
  { name: 'android-360', width: 360, height: 800, scale: 3 },
  { name: 'android-393', width: 393, height: 873, scale: 2.75 },
  { name: 'android-412', width: 412, height: 915, scale: 2.625 },
  { name: 'iphone-375', width: 375, height: 812, scale: 3 },
];

export interface Screen {
  id: string;
  message: TestMessage;
  /** The text the image shows, to compare with what is read. */
  text: string;
  dark: boolean;
  keyboard: boolean;
  photo: boolean;
  phone: Phone;
  image: Buffer;
  type: 'png' | 'jpeg';
}

interface Theme {
  bg: string;
  fg: string;
  muted: string;
  in: string;
  inFg: string;
  out: string;
  outFg: string;
  bar: string;
}

const THEMES: Record<Layout, { light: Theme; dark: Theme }> = {
  sms: {
    light: {
      bg: '#ffffff',
      fg: '#1f1f1f',
      muted: '#5f6368',
      in: '#e9eef6',
      inFg: '#1f1f1f',
      out: '#d3e3fd',
      outFg: '#041e49',
      bar: '#f8fafd',
    },
    dark: {
      bg: '#111318',
      fg: '#e3e3e3',
      muted: '#9aa0a6',
      in: '#2a2f37',
      inFg: '#e3e3e3',
      out: '#284777',
      outFg: '#d3e3fd',
      bar: '#1b1e24',
    },
  },
  messenger: {
    light: {
      bg: '#ffffff',
      fg: '#050505',
      muted: '#65676b',
      in: '#f0f0f0',
      inFg: '#050505',
      out: '#0084ff',
      outFg: '#ffffff',
      bar: '#ffffff',
    },
    dark: {
      bg: '#000000',
      fg: '#e4e6eb',
      muted: '#b0b3b8',
      in: '#303030',
      inFg: '#e4e6eb',
      out: '#0a7cff',
      outFg: '#ffffff',
      bar: '#000000',
    },
  },
  viber: {
    light: {
      bg: '#f1eff7',
      fg: '#1c1c1c',
      muted: '#6b6b6b',
      in: '#ffffff',
      inFg: '#1c1c1c',
      out: '#7360f2',
      outFg: '#ffffff',
      bar: '#ffffff',
    },
    dark: {
      bg: '#121212',
      fg: '#eeeeee',
      muted: '#a0a0a0',
      in: '#2b2b2e',
      inFg: '#eeeeee',
      out: '#5e4bd6',
      outFg: '#ffffff',
      bar: '#1e1e1e',
    },
  },
  telegram: {
    light: {
      bg: '#cfe3c9',
      fg: '#000000',
      muted: '#6d7d6a',
      in: '#ffffff',
      inFg: '#000000',
      out: '#effdde',
      outFg: '#000000',
      bar: '#ffffff',
    },
    dark: {
      bg: '#0e1621',
      fg: '#f5f5f5',
      muted: '#708499',
      in: '#182533',
      inFg: '#f5f5f5',
      out: '#2b5278',
      outFg: '#f5f5f5',
      bar: '#17212b',
    },
  },
  facebook: {
    light: {
      bg: '#f0f2f5',
      fg: '#050505',
      muted: '#65676b',
      in: '#ffffff',
      inFg: '#050505',
      out: '#ffffff',
      outFg: '#050505',
      bar: '#ffffff',
    },
    dark: {
      bg: '#18191a',
      fg: '#e4e6eb',
      muted: '#b0b3b8',
      in: '#242526',
      inFg: '#e4e6eb',
      out: '#242526',
      outFg: '#e4e6eb',
      bar: '#242526',
    },
  },
  email: {
    light: {
      bg: '#ffffff',
      fg: '#202124',
      muted: '#5f6368',
      in: '#ffffff',
      inFg: '#202124',
      out: '#ffffff',
      outFg: '#202124',
      bar: '#f6f8fc',
    },
    dark: {
      bg: '#1f1f1f',
      fg: '#e8eaed',
      muted: '#9aa0a6',
      in: '#1f1f1f',
      inFg: '#e8eaed',
      out: '#1f1f1f',
      outFg: '#e8eaed',
      bar: '#2d2e30',
    },
  },
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const KEYBOARD = [
  ['q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
  ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l'],
  ['\u21e7', 'z', 'x', 'c', 'v', 'b', 'n', 'm', '\u232b'],
  ['?123', ',', '\u263a', 'space', '.', '\u21b5'],
];

function keyboardHtml(dark: boolean): string {
  const bg = dark ? '#1f2125' : '#e8eaed';
  const key = dark ? '#3c4043' : '#ffffff';
  const fg = dark ? '#e8eaed' : '#202124';
  const rows = KEYBOARD.map(
    (row) =>
      `<div style="display:flex;gap:5px;justify-content:center;margin:7px 3px">${row
        .map(
          (k) =>
            `<div style="background:${key};color:${fg};border-radius:5px;height:42px;flex:${k === 'space' ? 5 : 1};display:flex;align-items:center;justify-content:center;font-size:21px">${k === 'space' ? '' : k}</div>`,
        )
        .join('')}</div>`,
  ).join('');
  const suggestions = `<div style="display:flex;justify-content:space-around;color:${fg};font-size:15px;padding:8px 0">
    <span>po</span><span>|</span><span>ako</span><span>|</span><span>ok</span></div>`;
  return `<div style="position:absolute;left:0;right:0;bottom:0;background:${bg};padding-bottom:14px">${suggestions}${rows}</div>`;
}

function statusBar(t: Theme): string {
  return `<div style="height:26px;display:flex;justify-content:space-between;align-items:center;padding:0 16px;font-size:13px;color:${t.fg}">
    <span>9:41</span><span>LTE &#9650; 87%</span></div>`;
}

function bubbles(m: TestMessage, t: Theme, layout: Layout): string {
  const radius = layout === 'sms' ? 20 : layout === 'telegram' ? 12 : 18;
  return m.bubbles
    .map((b) => {
      const mine = !!b.mine;
      return `<div style="display:flex;justify-content:${mine ? 'flex-end' : 'flex-start'};margin:6px 0">
        <div style="background:${mine ? t.out : t.in};color:${mine ? t.outFg : t.inFg};border-radius:${radius}px;padding:9px 13px;max-width:78%;overflow-wrap:anywhere">${esc(b.text)}</div></div>`;
    })
    .join('');
}

function page(m: TestMessage, dark: boolean, keyboard: boolean): string {
  const t = THEMES[m.layout][dark ? 'dark' : 'light'];
  let body: string;
  if (m.layout === 'facebook') {
    body = `<div style="background:${t.bar};padding:10px 14px;font-weight:700;font-size:22px;color:#1877f2">facebook</div>
      <div style="background:${t.in};margin:10px 0;padding:12px 14px">
        <div style="display:flex;gap:10px;align-items:center"><div style="width:40px;height:40px;border-radius:50%;background:#8a9bb0"></div>
        <div><div style="font-weight:600">${esc(m.from)}</div><div style="font-size:13px;color:${t.muted}">2h &middot; Public</div></div></div>
        ${m.bubbles.map((b) => `<p style="margin:12px 0 0;overflow-wrap:anywhere">${esc(b.text)}</p>`).join('')}
        <div style="margin-top:12px;display:flex;justify-content:space-around;color:${t.muted};font-size:14px;border-top:1px solid ${dark ? '#3e4042' : '#ced0d4'};padding-top:8px"><span>Like</span><span>Comment</span><span>Share</span></div>
      </div>`;
  } else if (m.layout === 'email') {
    body = `<div style="padding:12px 16px">
      <div style="font-size:20px;margin-bottom:14px">${esc(m.bubbles[0].text)}</div>
      <div style="display:flex;gap:10px;align-items:center;margin-bottom:16px"><div style="width:38px;height:38px;border-radius:50%;background:#7b61ff"></div>
      <div style="font-size:14px"><div style="font-weight:600;overflow-wrap:anywhere">${esc(m.from)}</div><div style="color:${t.muted}">to me &middot; 9:12 AM</div></div></div>
      ${m.bubbles
        .slice(1)
        .map((b) => `<p style="margin:0 0 12px;overflow-wrap:anywhere">${esc(b.text)}</p>`)
        .join('')}</div>`;
  } else {
    body = `<div style="background:${t.bar};padding:10px 14px;display:flex;gap:12px;align-items:center;border-bottom:1px solid ${dark ? '#2a2a2a' : '#e0e0e0'}">
        <span style="font-size:20px">&larr;</span><div style="width:34px;height:34px;border-radius:50%;background:#9e9e9e"></div>
        <div style="font-weight:600;font-size:17px">${esc(m.from)}</div></div>
      <div style="padding:8px 10px">
        <div style="text-align:center;color:${t.muted};font-size:12px;margin:6px 0">Today</div>
        ${bubbles(m, t, m.layout)}
      </div>`;
  }
  // The e-mail's subject line is its first bubble; the header shows the sender.
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html,body{margin:0;height:100%}
    body{background:${t.bg};color:${t.fg};font-family:'Liberation Sans',Arial,sans-serif;font-size:16px;line-height:1.35;position:relative;overflow:hidden}
    </style></head><body>${statusBar(t)}${body}${keyboard ? keyboardHtml(dark) : ''}</body></html>`;
}

/** A photo of a phone showing the screenshot: tilted, slightly blurred, with glare and sensor noise. */
function photoPage(png: Buffer, tilt: number): string {
  const src = `data:image/png;base64,${png.toString('base64')}`;
  return `<!doctype html><html><head><style>html,body{margin:0;height:100%;background:#6b5b4b;overflow:hidden}</style></head><body>
    <svg width="0" height="0" style="position:absolute"><filter id="noise"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" stitchTiles="stitch"/><feColorMatrix type="saturate" values="0"/><feComponentTransfer><feFuncA type="table" tableValues="0 0.12"/></feComponentTransfer></filter></svg>
    <div style="position:absolute;left:7%;top:4%;width:86%;height:92%;background:#111;border-radius:34px;padding:14px;box-sizing:border-box;transform:perspective(1400px) rotateX(${tilt / 2}deg) rotate(${tilt}deg);filter:blur(0.5px) contrast(0.92) brightness(1.04)">
      <img src="${src}" style="width:100%;height:100%;object-fit:cover;border-radius:22px">
      <div style="position:absolute;inset:14px;border-radius:22px;background:linear-gradient(115deg,rgba(255,255,255,0) 30%,rgba(255,255,255,0.22) 45%,rgba(255,255,255,0) 60%)"></div>
    </div>
    <div style="position:absolute;inset:0;filter:url(#noise)"></div>
  </body></html>`;
}

/**
 * Every screen of the test set: each message once (light or dark in turn, over the four phones; every
 * fifth with the keyboard open), then photos of the first five screens.
 */
export async function renderScreens(browser: Browser, messages: TestMessage[]): Promise<Screen[]> {
  const screens: Screen[] = [];
  for (const [n, message] of messages.entries()) {
    const phone = PHONES[n % PHONES.length];
    const dark = n % 2 === 1;
    const keyboard = n % 5 === 2 && message.layout !== 'facebook' && message.layout !== 'email';
    const context = await browser.newContext({
      viewport: { width: phone.width, height: phone.height },
      deviceScaleFactor: phone.scale,
    });
    const tab = await context.newPage();
    await tab.setContent(page(message, dark, keyboard));
    const image = await tab.screenshot({ type: 'png' });
    await context.close();
    screens.push({
      id: `${message.id}-${phone.name}-${dark ? 'dark' : 'light'}${keyboard ? '-keyboard' : ''}`,
      message,
      text: messageText(message),
      dark,
      keyboard,
      photo: false,
      phone,
      image,
      type: 'png',
    });
  }
  for (const [n, shot] of screens.slice(0, 5).entries()) {
    const context = await browser.newContext({
      viewport: { width: 1000, height: 1700 },
      deviceScaleFactor: 1.5,
    });
    const tab = await context.newPage();
    await tab.setContent(photoPage(shot.image, n % 2 ? -3 : 2.5));
    await tab.waitForTimeout(50);
    const image = await tab.screenshot({ type: 'jpeg', quality: 72 });
    await context.close();
    screens.push({ ...shot, id: `${shot.id}-photo`, photo: true, image, type: 'jpeg' });
  }
  return screens;
}
