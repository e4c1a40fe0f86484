import { useEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import { useFormContext, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { IMAGE_ACCEPT, MAX_IMAGE_BYTES } from '@/lib/image-file';
import { formatNumber } from '@/lib/format';

/**
 * A file input for one image, bound to a react-hook-form field holding a File. Clearing the field
 * (form reset) also clears the input's native selection.
 */
function ImageFileInput({
  value,
  onChange,
  onBlur,
  name,
  ...props
}: Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> & {
  value: File | undefined;
  onChange: (file: File | undefined) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!value && ref.current) ref.current.value = '';
  }, [value]);
  return (
    <Input
      ref={ref}
      type="file"
      accept={IMAGE_ACCEPT}
      name={name}
      onBlur={onBlur}
      onChange={(e) => onChange(e.target.files?.[0] ?? undefined)}
      className="file:text-primary cursor-pointer"
      {...props}
    />
  );
}

/**
 * The image upload field of the profile, report and news forms: label, file input, the size limit
 * (plus `hint`), and the field's error. A chosen file is validated at once, so an oversize image says
 * so before anything is sent. `children` go under the message (for example the current image).
 * Must sit inside the shadcn `<Form>` (react-hook-form's FormProvider).
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
  const { trigger } = useFormContext<T>();
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <ImageFileInput
              name={field.name}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(file) => {
                field.onChange(file);
                void trigger(name);
              }}
            />
          </FormControl>
          <FormDescription>
            {t('image.sizeHint', { bytes: formatNumber(MAX_IMAGE_BYTES) })}
            {hint}
          </FormDescription>
          <FormMessage />
          {children}
        </FormItem>
      )}
    />
  );
}
