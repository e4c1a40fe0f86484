import { useForm } from 'react-hook-form';
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
  const form = useForm<NotifyFormInput>({
    resolver: zodResolver(notifyFormSchema),
    defaultValues: { assetName: '' },
  });
  return (
    <Form {...form}>
      <form
        noValidate
        aria-label="Notify Me form"
        onSubmit={form.handleSubmit((values) => onSubmit(values, () => form.reset({ assetName: '' })))}
        className="flex flex-col gap-4"
      >
        <FormField
          control={form.control}
          name="assetName"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Your e-mails, mobile numbers, websites or crypto wallets</FormLabel>
              <FormControl>
                <Textarea
                  rows={4}
                  spellCheck={false}
                  placeholder={'0917 123 4567, me@example.com\nmy-shop.ph, 0x8f3c…'}
                  {...field}
                />
              </FormControl>
              <FormDescription>
                Separate them with commas. We notify you immediately if any of them is reported.
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SubmitButton isPending={isPending} className="w-full sm:w-40" />
      </form>
    </Form>
  );
}
