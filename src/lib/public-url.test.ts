import { describe, expect, it } from 'vitest';
import { supabase } from '@/lib/supabase';
import { publicObjectUrl } from './public-url';

describe('publicObjectUrl', () => {
  it('makes the URL supabase-js makes, for plain, nested, spaced, unicode and slash-led paths', () => {
    for (const path of [
      'banner.png',
      'news/2026/11/banner.webp',
      'a file (1).jpg',
      'balita/larawan-ñ-日本.png',
      '/leading/slash.png',
      '100%.png',
    ]) {
      const expected = supabase.storage.from('news-banners').getPublicUrl(path).data.publicUrl;
      expect(publicObjectUrl('news-banners', path)).toBe(expected);
    }
  });
});
