import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';
import { SubmitButton } from '@/components/submit-button';
import { notifyFormSchema, type NotifyFormInput } from '../api/registrations';

export function NotifyForm({
  onSubmit,
  isPending,
}: {
  onSubmit: (values: NotifyFormInput, reset: () => void) => void;
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const form = useForm<NotifyFormInput>({
    resolver: zodResolver(notifyFormSchema),
    defaultValues: { assetName: '' },
  });
  return (
    <Form {...form}>
      <form
        noValidate
        aria-label={t('notify.form.label')}
        onSubmit={form.handleSubmit((values) => onSubmit(values, () => form.reset({ assetName: '' })))}
        className="flex flex-col gap-4"
      >
        <FormField
          control={form.control}
          name="assetName"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('notify.form.field')}</FormLabel>
              <FormControl>
                <Textarea rows={4} spellCheck={false} placeholder={t('notify.form.placeholder')} {...field} />
              </FormControl>
              <FormDescription>{t('notify.form.hint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SubmitButton isPending={isPending} className="w-full sm:w-40" />
      </form>
    </Form>
  );
}
