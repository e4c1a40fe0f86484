/*
 * ScamCheck's service worker: makes the app installable and keeps an offline shell. Pages are fetched
 * from the network first and fall back to the cached shell (index.html), so the home page opens
 * without a connection; built assets (hashed, never change) are served from the cache once fetched.
 * API calls (/rest, /auth, /functions, /api) are never cached.
 *
 * The Web Share Target (manifest) posts what the phone shares to /check: the title, text and link go
 * to /check?title=&text=&url= as before, and a shared image is kept in the share cache for the page
 * to take once (/check?shared=image; src/features/check/ocr/shared-image.ts). The image stays on the
 * device: the page reads its text itself.
 *
 * The OCR engine's files (/ocr/<versions>/...: Tesseract's worker, core and English model, about 7 MB)
 * are fetched only when someone checks an image, then kept: their folder names the versions, so they
 * never change.
 */
const CACHE = 'scamcheck-shell-v1';
const OCR_CACHE = 'scamcheck-ocr-v1';
const SHARE_CACHE = 'scamcheck-share';
const SHARED_IMAGE_KEY = '/share/image';
const SHELL = ['/', '/manifest.webmanifest', '/icon-192.png', '/favicon.svg'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => ![CACHE, OCR_CACHE, SHARE_CACHE].includes(k)).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** The share sheet's POST: keep an image for the page, then open /check with the text fields. */
async function receiveShare(request) {
  const form = await request.formData();
  const query = new URLSearchParams();
  for (const key of ['title', 'text', 'url']) {
    const value = form.get(key);
    if (typeof value === 'string' && value.trim()) query.set(key, value);
  }
  const image = form
    .getAll('image')
    .find((f) => typeof f !== 'string' && (f.type.startsWith('image/') || /\.hei[cf]$/i.test(f.name)));
  if (image) {
    const cache = await caches.open(SHARE_CACHE);
    await cache.put(SHARED_IMAGE_KEY, new Response(image, { headers: { 'content-type': image.type } }));
    query.set('shared', 'image');
  }
  const search = query.toString();
  return Response.redirect(`/check${search ? `?${search}` : ''}`, 303);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method === 'POST' && url.origin === self.location.origin && url.pathname === '/check') {
    event.respondWith(receiveShare(req));
    return;
  }
  if (req.method !== 'GET') return;
  if (url.origin !== self.location.origin || /^\/(rest|auth|storage|functions|api)\//.test(url.pathname))
    return;
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok && url.pathname === '/') caches.open(CACHE).then((c) => c.put('/', res.clone()));
          return res;
        })
        .catch(() => caches.match('/')),
    );
    return;
  }
  if (url.pathname.startsWith('/ocr/')) {
    event.respondWith(
      caches.open(OCR_CACHE).then((cache) =>
        cache.match(req).then(
          (hit) =>
            hit ||
            fetch(req).then((res) => {
              if (res.ok) cache.put(req, res.clone());
              return res;
            }),
        ),
      ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});
