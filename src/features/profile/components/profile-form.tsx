import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { zodResolver } from '@hookform/resolvers/zod';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { ImageFormField } from '@/components/image-file-input';
import { SubmitButton } from '@/components/submit-button';
import { UserRound } from 'lucide-react';
import type { Profile } from '@/lib/auth';
import { supabase } from '@/lib/supabase';
import {
  AVATAR_BUCKET,
  profileFormSchema,
  type ProfileFormInput,
  type ProfileFormValues,
} from '../api/update-profile';

export function ProfileForm({
  profile,
  onSubmit,
  isPending,
}: {
  profile: Profile;
  onSubmit: (values: ProfileFormInput, reset: (values: ProfileFormValues) => void) => void;
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const form = useForm<ProfileFormValues, unknown, ProfileFormInput>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { name: profile.name, email: profile.email, avatar: undefined },
  });
  const avatarUrl = profile.avatarPath
    ? supabase.storage.from(AVATAR_BUCKET).getPublicUrl(profile.avatarPath).data.publicUrl
    : undefined;

  return (
    <Form {...form}>
      <form
        noValidate
        aria-label={t('profile.form.label')}
        onSubmit={form.handleSubmit((values) => onSubmit(values, form.reset))}
        className="flex flex-col gap-6"
      >
        <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
          <Avatar className="size-20">
            {avatarUrl && (
              <AvatarImage src={avatarUrl} alt={t('profile.form.avatarAlt')} className="object-cover" />
            )}
            <AvatarFallback>
              <UserRound className="size-8" aria-hidden />
            </AvatarFallback>
          </Avatar>
          <ImageFormField
            control={form.control}
            name="avatar"
            label={t('profile.form.avatar')}
            className="w-full flex-1"
          />
        </div>
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('auth.register.name')}</FormLabel>
              <FormControl>
                <Input autoComplete="name" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="email"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('auth.ui.email')}</FormLabel>
              <FormControl>
                <Input type="email" autoComplete="email" {...field} />
              </FormControl>
              <FormDescription>{t('profile.form.emailHint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SubmitButton isPending={isPending} className="w-full sm:w-40" />
      </form>
    </Form>
  );
}
