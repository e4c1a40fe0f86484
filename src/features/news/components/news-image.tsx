import { useState } from 'react';
import { Newspaper } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * An article's picture, or a neutral tile when it has none or it fails to load (external images
 * may be offline), so a card never shows a broken-image icon.
 */
export function NewsImage({ src, alt, className }: { src: string | null; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div
        className={cn('bg-muted text-muted-foreground flex items-center justify-center', className)}
        aria-hidden
      >
        <Newspaper className="size-10" />
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
