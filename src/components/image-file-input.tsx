import { useEffect, useMemo, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { useFormContext, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Loader2, X } from 'lucide-react';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { IMAGE_PICK_ACCEPT, MAX_IMAGE_BYTES, refusedImages } from '@/lib/image-file';
import { holdImageShrinkWorker, ImageShrinkError, shrinkImage, type ShrunkImage } from '@/lib/image-shrink';
import { formatBytes, formatNumber } from '@/lib/format';

/** A shrunk image kept with what the preview says about it. */
interface Picked {
  file: File;
  originalBytes: number;
  width: number;
  height: number;
}

/** Shrinks each picked file in turn; a refusal names the file and says why. */
async function shrinkAll(files: File[]): Promise<{ done: ShrunkImage[]; error: string | null }> {
  const done: ShrunkImage[] = [];
  for (const file of files) {
    try {
      done.push(await shrinkImage(file));
    } catch (e) {
      const why = e instanceof ImageShrinkError ? e.message : String(e);
      return { done, error: files.length > 1 ? `${file.name}: ${why}` : why };
    }
  }
  return { done, error: null };
}

/** A preview of one image with its final size (and what it was before shrinking). */
function ImagePreview({ picked, onRemove }: { picked: Picked; onRemove?: () => void }) {
  const { t } = useTranslation();
  const url = useMemo(() => URL.createObjectURL(picked.file), [picked.file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const shrunk = picked.originalBytes !== picked.file.size;
  return (
    <figure className="bg-muted/40 relative flex w-28 flex-col gap-1 rounded-md border p-1 text-xs">
      <img src={url} alt={picked.file.name} className="h-32 w-full rounded-sm object-contain" />
      <figcaption className="text-muted-foreground leading-tight" data-testid="image-size">
        {shrunk
          ? t('image.shrunk', { size: formatBytes(picked.file.size), was: formatBytes(picked.originalBytes) })
          : formatBytes(picked.file.size)}
        <br />
        {`${picked.width} × ${picked.height}`}
      </figcaption>
      {onRemove && (
        <Button
          type="button"
          variant="secondary"
          size="icon"
          className="absolute top-1 right-1 size-6"
          onClick={onRemove}
          aria-label={t('image.remove', { name: picked.file.name })}
        >
          <X className="size-3" />
        </Button>
      )}
    </figure>
  );
}

/**
 * The file input itself. Clearing the field (form reset) also clears the input's native selection,
 * and the same file can be picked again after it was removed.
 */
function PickInput({
  onPick,
  multiple,
  disabled,
  name,
  onBlur,
  ...props
}: Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> & { onPick: (files: File[]) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <Input
      ref={ref}
      type="file"
      accept={IMAGE_PICK_ACCEPT}
      multiple={multiple}
      disabled={disabled}
      name={name}
      onBlur={onBlur}
      onChange={(e) => {
        const files = [...(e.target.files ?? [])];
        if (ref.current) ref.current.value = '';
        if (files.length) onPick(files);
      }}
      className="file:text-primary cursor-pointer"
      {...props}
    />
  );
}

function Shrinking() {
  const { t } = useTranslation();
  return (
    <p role="status" className="text-muted-foreground flex items-center gap-2 text-sm">
      <Loader2 className="size-4 animate-spin" aria-hidden />
      {t('image.shrinking')}
    </p>
  );
}

/**
 * The image upload field of the profile and news forms: label, file input, the size limit (plus
 * `hint`), the field's error, and once chosen a preview with its final size. A picked image is shrunk
 * on the device until it fits (lib/image-shrink.ts) and the field holds the shrunk File; one that
 * cannot be read or shrunk says so at once and stays in the field as refused (lib/image-file.ts
 * refusedImages), so the form is not sent until another image is picked or the field is cleared. `children` go under the
 * message (for example the current image). Must sit inside the shadcn `<Form>`.
 */
export function ImageFormField<T extends FieldValues>({
  control,
  name,
  label,
  hint,
  className,
  children,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { setError, clearErrors } = useFormContext<T>();
  const [busy, setBusy] = useState(false);
  const [picked, setPicked] = useState<Picked | null>(null);
  // The shrinking worker is ready before the first pick (lib/image-shrink.ts).
  useEffect(() => holdImageShrinkWorker(), []);
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => {
        const current = picked && picked.file === (field.value as unknown) ? picked : null;
        const value: unknown = field.value;
        const refused = value instanceof File && refusedImages.has(value) ? value : null;
        return (
          <FormItem className={className}>
            <FormLabel>{label}</FormLabel>
            <FormControl>
              <PickInput
                name={field.name}
                onBlur={field.onBlur}
                disabled={busy}
                aria-busy={busy}
                onPick={async ([file]) => {
                  setBusy(true);
                  const { done, error } = await shrinkAll([file]);
                  setBusy(false);
                  if (error) {
                    // Kept in the field, refused by its schema, so the form is not sent without it.
                    refusedImages.set(file, error);
                    setPicked(null);
                    field.onChange(file);
                    setError(name, { type: 'image', message: error });
                    return;
                  }
                  clearErrors(name);
                  setPicked(done[0]);
                  field.onChange(done[0].file);
                }}
              />
            </FormControl>
            <FormDescription>
              {t('image.shrinkHint', { bytes: formatNumber(MAX_IMAGE_BYTES) })}
              {hint}
            </FormDescription>
            <FormMessage />
            {busy && <Shrinking />}
            {current && <ImagePreview picked={current} onRemove={() => field.onChange(undefined)} />}
            {refused && (
              <Button
                type="button"
                variant="secondary"
                size="sm"
                className="w-fit"
                onClick={() => {
                  field.onChange(undefined);
                  clearErrors(name);
                }}
              >
                {t('image.remove', { name: refused.name })}
              </Button>
            )}
            {children}
          </FormItem>
        );
      }}
    />
  );
}

/**
 * Up to `max` images (the report's evidence): each picked image is shrunk on the device and shown
 * with its final size and a remove button; the field holds the shrunk Files in order. `children`
 * (images already stored, when editing) are shown first, and `max` is what is left beside them.
 */
export function ImagesFormField<T extends FieldValues>({
  control,
  name,
  label,
  max,
  className,
  children,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  max: number;
  className?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { setError, clearErrors } = useFormContext<T>();
  const [busy, setBusy] = useState(false);
  const [details, setDetails] = useState(() => new Map<File, Picked>());
  useEffect(() => holdImageShrinkWorker(), []);
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => {
        const files: File[] = Array.isArray(field.value) ? (field.value as File[]) : [];
        const room = max - files.length;
        return (
          <FormItem className={className}>
            <FormLabel>{label}</FormLabel>
            <FormControl>
              <PickInput
                name={field.name}
                multiple
                onBlur={field.onBlur}
                disabled={busy || room <= 0}
                aria-busy={busy}
                onPick={async (chosen) => {
                  clearErrors(name);
                  const taken = chosen.slice(0, Math.max(0, room));
                  setBusy(true);
                  const { done, error } = await shrinkAll(taken);
                  setBusy(false);
                  const next = new Map(details);
                  for (const d of done) next.set(d.file, d);
                  setDetails(next);
                  field.onChange([...files, ...done.map((d) => d.file)]);
                  if (error) setError(name, { type: 'image', message: error });
                  else if (chosen.length > taken.length)
                    setError(name, { type: 'image', message: t('image.tooMany', { max }) });
                }}
              />
            </FormControl>
            <FormDescription>
              {t('image.evidenceHint', { max, bytes: formatNumber(MAX_IMAGE_BYTES) })}
            </FormDescription>
            <FormMessage />
            {busy && <Shrinking />}
            {(files.length > 0 || children) && (
              <div className="flex flex-wrap gap-2" data-testid="evidence-previews">
                {children}
                {files.map((file, i) => (
                  <ImagePreview
                    key={`${file.name}-${file.size}-${i}`}
                    picked={details.get(file) ?? { file, originalBytes: file.size, width: 0, height: 0 }}
                    onRemove={() => field.onChange(files.filter((_, j) => j !== i))}
                  />
                ))}
              </div>
            )}
          </FormItem>
        );
      }}
    />
  );
}
