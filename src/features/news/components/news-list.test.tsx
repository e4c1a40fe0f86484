import { createTestQueryClient, renderApp, screen, within } from '@/testing/test-utils';
import { newsKeys } from '../api/keys';
import type { NewsArticle } from '../api/types';
import { NewsList, relatedNews } from './news-list';

function article(id: string, title: string, tags: string[], createdAt: string): NewsArticle {
  return {
    id,
    newsTitle: title,
    newsDescription: `${title}.`,
    tags,
    imgUrl: null,
    source: null,
    sourceDesc: null,
    imageUrl: null,
    createdAt,
  };
}

const lead = article(
  'a1',
  'Fake delivery riders ask for COD fees',
  ['Delivery', 'sms'],
  '2026-11-20T00:00:00Z',
);
const smsOld = article('a2', 'Smishing waves hit bank customers', ['SMS', 'banks'], '2026-10-01T00:00:00Z');
const deliveryNew = article(
  'a3',
  'Parcel scam texts name real couriers',
  ['delivery'],
  '2026-11-10T00:00:00Z',
);
const unrelated = article('a4', 'Crypto investment groups on Telegram', ['crypto'], '2026-11-15T00:00:00Z');

describe('Related News', () => {
  it('lists the articles sharing a tag with the lead (any case), most recent first, without the lead', () => {
    expect(relatedNews([lead, unrelated, smsOld, deliveryNew], lead).map((a) => a.id)).toEqual(['a3', 'a2']);
    expect(relatedNews([lead, unrelated], lead)).toEqual([]);
    expect(relatedNews([lead, smsOld, deliveryNew], lead, 1).map((a) => a.id)).toEqual(['a3']);
  });

  it("fills the news list's Related News column beside Top News", async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(newsKeys.list({}), [lead, unrelated, deliveryNew, smsOld]);
    renderApp(<NewsList />, { queryClient });
    const column = (await screen.findByRole('heading', { name: 'Related News' })).closest('section')!;
    expect(
      within(column)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Parcel scam texts name real couriers', '/news-article/a3'],
      ['Smishing waves hit bank customers', '/news-article/a2'],
    ]);
    expect(screen.getByRole('heading', { name: 'Top News' })).toBeInTheDocument();
  });
});
