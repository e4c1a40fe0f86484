/** News: front page, list, one article, and adding one (admins; docs/behaviour.md §7, /news). */
import { fileField, readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { storeImage } from '../../_shared/uploads.ts';
import { newsSchema, parseFields, uuidSchema } from '../../_shared/schemas.ts';
import { clientFor, identify, requireUser, isAdmin } from '../../_shared/supabase.ts';
import { dbError } from '../db.ts';
import { newsOut } from '../present.ts';
import type { RouteContext } from '../router.ts';

const BANNERS = 'news-banners' as const;
const FRONT_PAGE_SIZE = 6;

async function listNews(req: Request, limit: number, offset = 0) {
  const client = clientFor(await identify(req));
  const { data, error } = await client
    .from('news')
    .select('*')
    .order('created_at', { ascending: false })
    .range(offset, offset + limit - 1);
  if (error) throw dbError(error, 'read the news');
  return (data ?? []).map((n) => newsOut(client, n));
}

export async function frontPage({ req }: RouteContext): Promise<Response> {
  return json({ news: await listNews(req, FRONT_PAGE_SIZE) });
}

export async function allNews({ req, url }: RouteContext): Promise<Response> {
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || 50, 1), 200);
  const page = Math.max(Math.floor(Number(url.searchParams.get('page')) || 1), 1);
  return json({ news: await listNews(req, limit, (page - 1) * limit) });
}

export async function oneNews({ req, params }: RouteContext): Promise<Response> {
  if (!uuidSchema.safeParse(params.id).success) throw new HttpError(404, `No news with id ${params.id}`);
  const client = clientFor(await identify(req));
  const { data, error } = await client.from('news').select('*').eq('id', params.id).maybeSingle();
  if (error) throw dbError(error, 'read this article');
  if (!data) throw new HttpError(404, `No news with id ${params.id}`);
  return json({ news: newsOut(client, data) });
}

export async function addNews({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const client = clientFor(caller);
  // The database refuses non-admins too (RLS); asking first avoids reading a large upload for nothing.
  if (!(await isAdmin(client, caller.user.id))) throw new HttpError(403, 'Only admins can add news');
  const fields = await readFields(req);
  const input = parseFields(newsSchema, fields);
  const bannerFile = fileField(fields, 'newsBanner');
  const bannerPath = bannerFile
    ? await storeImage(BANNERS, 'banners', bannerFile, {
        userId: caller.user.id,
        forwardedFor: req.headers.get('x-forwarded-for'),
      })
    : null;
  const { data, error } = await client
    .from('news')
    .insert({
      news_title: input.newsTitle,
      news_description: input.newsDescription,
      tags: input.tags,
      img_url: input.imgURL ?? null,
      source: input.source ?? null,
      source_desc: input.sourceDesc ?? null,
      banner_path: bannerPath,
      author_id: caller.user.id,
    })
    .select()
    .single();
  if (error) {
    if (bannerPath) await client.storage.from(BANNERS).remove([bannerPath]);
    throw dbError(error, 'add news');
  }
  return json({ msg: 'News Added Sucessfully', news: newsOut(client, data) }, 201);
}
