import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { ImageUp, LoaderCircle, LockKeyhole } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import type { Reading, ReadFailure, ReadStage } from '../ocr/read-image';

/** The OCR module (Tesseract and its files) loads only when an image is given. */
const loadReader = () => import('../ocr/read-image');

const failureKey = {
  'not-image': 'check.image.error.notImage',
  'too-large': 'check.image.error.tooLarge',
  heic: 'check.image.error.heic',
  decode: 'check.image.error.decode',
  engine: 'check.image.error.engine',
} as const satisfies Record<ReadFailure, string>;

const stageKey = {
  preparing: 'check.image.stage.preparing',
  loading: 'check.image.stage.loading',
  reading: 'check.image.stage.reading',
} as const satisfies Record<ReadStage, string>;

/** The first image among dropped, pasted or shared files. */
export function firstImage(files: Iterable<File> | null | undefined): File | undefined {
  for (const file of files ?? [])
    if (file.type.startsWith('image/') || /\.hei[cf]$/i.test(file.name)) return file;
  return undefined;
}

/**
 * "Check a screenshot": choose an image, paste one (anywhere on the page) or drop it here. The text is
 * read on this device (src/features/check/ocr), then handed to `onRead`; the image is never uploaded.
 * `shared` is an image the phone's share sheet sent to the app (the service worker kept it).
 */
export function ImagePicker({ onRead, shared }: { onRead: (reading: Reading) => void; shared?: Blob }) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [stage, setStage] = useState<ReadStage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const busy = stage !== null;
  const handledShare = useRef<Blob | null>(null);

  const read = useCallback(
    async (image: Blob) => {
      setError(null);
      setPreview((old) => {
        if (old) URL.revokeObjectURL(old);
        return URL.createObjectURL(image);
      });
      setStage('preparing');
      try {
        const { readImage } = await loadReader();
        const reading = await readImage(image, setStage);
        if (!reading.text.trim()) setError(t('check.image.error.noText'));
        else onRead(reading);
      } catch (e) {
        const reason = (e as { reason?: ReadFailure }).reason;
        setError(t(reason ? failureKey[reason] : 'check.image.error.engine'));
      } finally {
        setStage(null);
        if (input.current) input.current.value = '';
      }
    },
    [onRead, t],
  );

  // Paste anywhere on /check: an image on the clipboard is read (text pastes go to the message box).
  useEffect(() => {
    function onPaste(event: ClipboardEvent) {
      const image = firstImage(event.clipboardData?.files);
      if (!image || busy) return;
      event.preventDefault();
      void read(image);
    }
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [busy, read]);

  useEffect(() => {
    if (!shared || handledShare.current === shared) return;
    handledShare.current = shared;
    void read(shared);
  }, [shared, read]);

  useEffect(() => () => void loadReader().then((m) => m.stopImageReader()), []);

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const image = firstImage(event.dataTransfer.files);
    if (image && !busy) void read(image);
  }

  return (
    <div
      className={cn(
        'flex flex-col gap-3 rounded-md border border-dashed p-4 transition-colors',
        dragging && 'border-primary bg-primary/5',
      )}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="image-picker"
    >
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept="image/*"
          className="sr-only"
          onChange={(e) => {
            // Any chosen file: one that is no image is refused with a message by readImage.
            const file = e.target.files?.[0];
            if (file) void read(file);
          }}
          disabled={busy}
          aria-describedby={`${id}-note`}
        />
        <Button type="button" variant="outline" disabled={busy} onClick={() => input.current?.click()}>
          {busy ? <LoaderCircle aria-hidden className="animate-spin" /> : <ImageUp aria-hidden />}
          {t('check.image.choose')}
        </Button>
        <p className="text-muted-foreground text-sm">{t('check.image.orPaste')}</p>
      </div>
      <p id={`${id}-note`} className="text-muted-foreground flex gap-2 text-sm">
        <LockKeyhole aria-hidden className="text-primary mt-0.5 size-4 shrink-0" />
        {t('check.image.private')}
      </p>
      {(busy || error) && (
        <div className="flex items-start gap-3">
          {preview && (
            <img
              src={preview}
              alt={t('check.image.previewAlt')}
              className="h-24 w-auto rounded border object-contain"
            />
          )}
          {busy ? (
            <p role="status" aria-live="polite" className="flex items-center gap-2 text-sm">
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
              {stage && t(stageKey[stage])}
            </p>
          ) : (
            <p role="alert" className="text-destructive text-sm">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
