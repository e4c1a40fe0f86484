import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';

const optionalText = (max: number, label: string) => z.string().trim().max(max, `${label} is too long`);

/** Limits match the contact_messages table's checks. */
export const contactInputSchema = z.object({
  nickname: optionalText(100, 'Nickname'),
  // SPEC.md asks only for the message; without an e-mail the team can read it but not answer.
  email: z.union([z.literal(''), z.string().trim().pipe(z.email('Enter a valid e-mail address'))]),
  subject: optionalText(200, 'Subject'),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message is too long (5000 characters at most)'),
});
export type ContactInput = z.infer<typeof contactInputSchema>;

/**
 * Saves a contact message. Visitors may insert but not read the table (only admins read the inbox),
 * so the insert asks for no row back.
 */
export async function createContactMessage(input: ContactInput) {
  const { error } = await supabase.from('contact_messages').insert({
    nickname: input.nickname || null,
    email: input.email.trim() || null,
    subject: input.subject || null,
    message: input.message,
  });
  if (error) throw error;
}

export function useCreateContactMessage({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: createContactMessage, onSuccess: () => onSuccess?.() });
}
