import { useForm } from 'react-hook-form';
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
import { ImageFileInput } from '@/components/image-file-input';
import { SubmitButton } from '@/components/submit-button';
import { UserRound } from 'lucide-react';
import type { Profile } from '@/lib/auth';
import { MAX_IMAGE_BYTES } from '@/lib/image-file';
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
        aria-label="Profile form"
        onSubmit={form.handleSubmit((values) => onSubmit(values, form.reset))}
        className="flex flex-col gap-6"
      >
        <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
          <Avatar className="size-20">
            {avatarUrl && <AvatarImage src={avatarUrl} alt="Your avatar" className="object-cover" />}
            <AvatarFallback>
              <UserRound className="size-8" aria-hidden />
            </AvatarFallback>
          </Avatar>
          <FormField
            control={form.control}
            name="avatar"
            render={({ field }) => (
              <FormItem className="w-full flex-1">
                <FormLabel>Avatar</FormLabel>
                <FormControl>
                  <ImageFileInput
                    name={field.name}
                    value={field.value}
                    onBlur={field.onBlur}
                    onChange={(file) => {
                      field.onChange(file);
                      void form.trigger('avatar');
                    }}
                  />
                </FormControl>
                <FormDescription>
                  An image of at most {MAX_IMAGE_BYTES.toLocaleString('en-PH')} bytes.
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Name</FormLabel>
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
              <FormLabel>Email</FormLabel>
              <FormControl>
                <Input type="email" autoComplete="email" {...field} />
              </FormControl>
              <FormDescription>
                A new address takes effect once you confirm it from the e-mail we send.
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
