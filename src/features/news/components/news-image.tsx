import { useState } from 'react';
import { Newspaper, ShieldCheck } from 'lucide-react';
import { cn } from '@/lib/utils';

/** The placeholders' colourings, picked per article so a row of cards without banners is not uniform. */
const PLACEHOLDER_TONES = [
  'from-blue-700 to-sky-500',
  'from-indigo-700 to-blue-500',
  'from-sky-800 to-cyan-500',
  'from-blue-900 to-indigo-500',
];

function toneFor(seed: string): string {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return PLACEHOLDER_TONES[Math.abs(hash) % PLACEHOLDER_TONES.length];
}

/**
 * An article's picture, or, when it has none or it fails to load (external images may be offline), a
 * designed tile in the site's blues with the ScamCheck mark (issue 37), so a card never shows a
 * broken-image icon or a grey box. `seed` (the title) picks the tile's colouring.
 */
export function NewsImage({
  src,
  alt,
  className,
  seed = alt,
}: {
  src: string | null;
  alt: string;
  className?: string;
  seed?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div
        data-news-placeholder
        className={cn(
          'relative flex items-center justify-center overflow-hidden bg-gradient-to-br text-white',
          toneFor(seed),
          className,
        )}
        aria-hidden
      >
        {/* A faint dot grid and a large newspaper mark behind the shield. */}
        <div className="absolute inset-0 bg-[radial-gradient(circle,rgb(255_255_255/0.18)_1px,transparent_1px)] bg-size-[14px_14px]" />
        <Newspaper className="absolute -right-4 -bottom-6 size-32 rotate-[-12deg] opacity-15" />
        <div className="relative flex items-center gap-2 rounded-full bg-white/15 px-4 py-2 ring-1 ring-white/30 backdrop-blur-sm">
          <ShieldCheck className="size-6" />
          <span className="text-lg font-semibold tracking-tight">ScamCheck</span>
        </div>
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      onError={() => setFailed(true)}
      className={cn('object-cover', className)}
    />
  );
}
