import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { profileKeys, type Profile } from '@/lib/auth';
import { optionalImageFile, uploadImage } from '@/lib/image-file';
import { supabase } from '@/lib/supabase';

/** The public avatars bucket; uploads go through the upload-image function into the user's own folder. */
export const AVATAR_BUCKET = 'avatars' as const;

export const profileFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.profile.nameRequired')
    .max(100, 'validation.profile.nameTooLong'),
  email: z.email('validation.email').max(320),
  avatar: optionalImageFile,
});
export type ProfileFormValues = z.input<typeof profileFormSchema>;
export type ProfileFormInput = z.output<typeof profileFormSchema>;

export interface UpdateProfileResult {
  /** The new address waiting for confirmation, when the e-mail was changed. */
  pendingEmail: string | null;
}

/**
 * Saves name and avatar in public.profiles (RLS: one's own row), then asks Supabase Auth to change
 * the e-mail, which only happens once the user follows the link in the confirmation e-mail.
 */
export async function updateProfile({
  profile,
  values,
}: {
  profile: Profile;
  values: ProfileFormInput;
}): Promise<UpdateProfileResult> {
  const avatarPath = values.avatar ? await uploadImage(AVATAR_BUCKET, values.avatar) : null;
  const { error } = await supabase
    .from('profiles')
    .update({ name: values.name, ...(avatarPath ? { avatar_path: avatarPath } : {}) })
    .eq('id', profile.id);
  if (error) {
    if (avatarPath) await supabase.storage.from(AVATAR_BUCKET).remove([avatarPath]);
    throw error;
  }
  if (avatarPath && profile.avatarPath)
    await supabase.storage.from(AVATAR_BUCKET).remove([profile.avatarPath]);

  const email = values.email.trim().toLowerCase();
  if (email !== profile.email.toLowerCase()) {
    const { error: authError } = await supabase.auth.updateUser({ email });
    if (authError) throw authError;
    return { pendingEmail: email };
  }
  return { pendingEmail: null };
}

export function useUpdateProfile({ onSuccess }: { onSuccess?: (result: UpdateProfileResult) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (result) => {
      // The top bar reads the same query, so the new name and avatar show at once.
      await queryClient.invalidateQueries({ queryKey: profileKeys.all });
      onSuccess?.(result);
    },
  });
}
