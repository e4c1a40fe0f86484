import userEvent from '@testing-library/user-event';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor } from '@/testing/test-utils';
import type { NewsRow } from '../api/types';
import { NewsEditor } from './news-editor';
import { i18n } from '@/i18n';

// jsdom cannot decode images. The real shrinking (lib/image-shrink.ts, checked in a real browser by
// tests/e2e/dashboard.test.ts) keeps a small PNG byte for byte and refuses a file that is no image;
// this stand-in does the same by the PNG signature.
vi.mock('@/lib/image-shrink', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/image-shrink')>();
  return {
    ...actual,
    shrinkImage: vi.fn(async (file: File) => {
      const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
      if (head[0] !== 137 || head[1] !== 80) throw new actual.ImageShrinkError(i18n.t('image.unreadable'));
      return { file, originalBytes: file.size, width: 64, height: 48, reencoded: false };
    }),
  };
});

afterEach(() => vi.restoreAllMocks());

// Typing into several fields through user-event is slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

const ADMIN_ID = '00000000-0000-4000-a000-00000000ad01';
const article: NewsRow = {
  id: 'c7d81b69-4946-4e2f-9bb5-fdf18dd1d006',
  news_title: 'Parcel delivery texts ask for a "redelivery fee"',
  news_description: 'Couriers do not collect fees through links in text messages.',
  tags: ['sms', 'delivery'],
  img_url: null,
  source: 'https://www.pna.gov.ph/',
  source_desc: 'Philippine News Agency',
  banner_path: `${ADMIN_ID}/old-banner.png`,
  created_at: '2026-11-19T00:00:00Z',
  updated_at: '2026-11-19T00:00:00Z',
};
const png = () => new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'banner.png', { type: 'image/png' });

const UPLOAD = '/functions/v1/upload-image';
/** The path the fake upload-image function answers (the real one picks a fresh UUID). */
const NEW_BANNER = `${ADMIN_ID}/6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f.png`;

/** The news API as an admin sees it; `upload` and `patch` decide how those answers go. */
function fakeNewsApi({
  upload = 'ok',
  patch = 'ok',
}: { upload?: 'ok' | 'refused'; patch?: 'ok' | 'gone' } = {}) {
  return fakeSupabase((req: FakeRequest) => {
    if (req.method === 'POST' && req.path === UPLOAD) {
      return upload === 'ok'
        ? json({ bucket: 'news-banners', path: NEW_BANNER }, { status: 201 })
        : json(
            { msg: 'News banner must be an image (JPEG, PNG, WebP or GIF); this file is not one' },
            { status: 400 },
          );
    }
    if (req.method === 'PATCH' && req.path === '/rest/v1/news')
      return json(patch === 'ok' ? [{ id: article.id }] : []);
    if (req.method === 'DELETE' && req.path === '/storage/v1/object/news-banners') return json([]);
  });
}

describe('NewsEditor', () => {
  it('fills the form with the article, saves the changes with an update and says so', async () => {
    const api = fakeNewsApi();
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={onDone} />);

    expect(screen.getByRole('form', { name: 'Edit News form' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue(article.news_title);
    expect(screen.getByLabelText('Article')).toHaveValue(article.news_description);
    expect(screen.getByLabelText('Tags')).toHaveValue('sms, delivery');
    expect(screen.getByLabelText('Source link')).toHaveValue('https://www.pna.gov.ph/');
    expect(screen.getByLabelText('Source name')).toHaveValue('Philippine News Agency');
    expect(screen.getByLabelText('Image address')).toHaveValue('');
    expect(screen.getByText(/Leave it empty to keep the current banner/)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Redelivery-fee texts are back');
    await user.type(screen.getByLabelText('Tags'), ', card fraud');
    await user.click(screen.getByRole('button', { name: 'submit' }));

    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();
    expect(onDone).toHaveBeenCalledTimes(1);
    const [patch] = api.sent('PATCH', '/rest/v1/news');
    expect(patch.url.searchParams.get('id')).toBe(`eq.${article.id}`);
    expect(patch.body).toEqual({
      news_title: 'Redelivery-fee texts are back',
      news_description: article.news_description,
      tags: ['sms', 'delivery', 'card fraud'],
      img_url: null,
      source: 'https://www.pna.gov.ph/',
      source_desc: 'Philippine News Agency',
    });
    // No new banner: the current one is neither replaced nor removed.
    expect(api.requests.filter((r) => r.path.startsWith('/storage/'))).toEqual([]);
    expect(api.sent('POST', '/rest/v1/news')).toEqual([]);
  });

  it('replaces the banner: uploads the new one, points the row at it, then removes the old one', async () => {
    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();

    // The file goes to the upload-image function with the bucket it is for; the row gets the path it answers.
    const [upload] = api.sent('POST', UPLOAD);
    const form = upload.body as FormData;
    expect(form.get('bucket')).toBe('news-banners');
    expect((form.get('file') as File).name).toBe('banner.png');
    expect((api.sent('PATCH', '/rest/v1/news')[0].body as { banner_path: string }).banner_path).toBe(
      NEW_BANNER,
    );
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([
      { prefixes: [article.banner_path] },
    ]);
    // Order matters: upload, then the row, then the old file.
    expect(api.requests.map((r) => r.method)).toEqual(['POST', 'PATCH', 'DELETE']);
  });

  it('removes the current banner when asked: the row points at none, then the file goes', async () => {
    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.click(screen.getByRole('checkbox', { name: 'Remove the current banner' }));
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();
    expect((api.sent('PATCH', '/rest/v1/news')[0].body as { banner_path: unknown }).banner_path).toBeNull();
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([
      { prefixes: [article.banner_path] },
    ]);
    expect(api.requests.map((r) => r.method)).toEqual(['PATCH', 'DELETE']);
  });

  it('offers no removal for an article without a banner, and a new banner takes the place of removal', async () => {
    const view = renderApp(
      <NewsEditor userId={ADMIN_ID} editing={{ ...article, banner_path: null }} onDone={() => {}} />,
    );
    expect(screen.queryByRole('checkbox', { name: 'Remove the current banner' })).not.toBeInTheDocument();
    view.unmount();

    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.click(screen.getByRole('checkbox', { name: 'Remove the current banner' }));
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    expect(screen.getByRole('checkbox', { name: 'Remove the current banner' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(await screen.findByText('News Updated Sucessfully')).toBeInTheDocument();
    expect(api.sent('POST', UPLOAD)).toHaveLength(1);
    expect((api.sent('PATCH', '/rest/v1/news')[0].body as { banner_path: unknown }).banner_path).toBe(
      NEW_BANNER,
    );
  });

  it('leaves the article untouched when the banner upload fails, and shows the server message', async () => {
    const api = fakeNewsApi({ upload: 'refused' });
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={onDone} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(
      await screen.findByText('News banner must be an image (JPEG, PNG, WebP or GIF); this file is not one'),
    ).toBeInTheDocument();
    expect(api.sent('PATCH', '/rest/v1/news')).toEqual([]);
    expect(api.sent('DELETE', '/storage/')).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.queryByText('News Updated Sucessfully')).not.toBeInTheDocument();
  });

  it('removes the new upload again when the row cannot be saved', async () => {
    const api = fakeNewsApi({ patch: 'gone' });
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.upload(screen.getByLabelText('New banner (optional)'), png());
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(
      await screen.findByText('This article no longer exists, or you may not change it'),
    ).toBeInTheDocument();
    // The new file goes; the article's own banner stays.
    expect(api.sent('DELETE', '/storage/v1/object/news-banners').map((r) => r.body)).toEqual([
      { prefixes: [NEW_BANNER] },
    ]);
  });

  // Issue 33: a large image is made smaller on the device (checked in a real browser in
  // tests/e2e/dashboard.test.ts); a file that is no image is refused, and so is the form.
  it('refuses a new banner that is no image (500,001 zero bytes) and sends nothing', async () => {
    const api = fakeNewsApi();
    const user = userEvent.setup({ delay: null });
    renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={() => {}} />);
    await user.upload(
      screen.getByLabelText('New banner (optional)'),
      new File([new Uint8Array(500_001)], 'b.png', { type: 'image/png' }),
    );
    await user.click(screen.getByRole('button', { name: 'submit' }));
    expect(
      await screen.findByText(
        'This image could not be read. Take a screenshot of it, or save it as JPEG or PNG, and try again.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(api.requests).toEqual([]));
  });

  it('Cancel leaves edit mode without saving; without an article the card adds news', async () => {
    const api = fakeNewsApi();
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    const view = renderApp(<NewsEditor userId={ADMIN_ID} editing={article} onDone={onDone} />);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(api.requests).toEqual([]);
    view.unmount();

    renderApp(<NewsEditor userId={ADMIN_ID} editing={null} onDone={onDone} />);
    expect(screen.getByRole('form', { name: 'Add News form' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });
});
