import { useEffect, useRef, type ComponentProps } from 'react';
import { Input } from '@/components/ui/input';
import { IMAGE_ACCEPT } from '@/lib/image-file';

/**
 * A file input for one image, bound to a react-hook-form field holding a File. Clearing the field
 * (form reset) also clears the input's native selection.
 */
export function ImageFileInput({
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
