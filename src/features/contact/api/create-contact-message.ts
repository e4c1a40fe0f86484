import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';

/** Limits match the contact_messages table's checks. Messages are catalogue keys (FormMessage translates). */
export const contactInputSchema = z.object({
  nickname: z.string().trim().max(100, 'validation.contact.nicknameTooLong'),
  // docs/behaviour.md asks only for the message; without an e-mail the team can read it but not answer.
  email: z.union([z.literal(''), z.string().trim().pipe(z.email('validation.email'))]),
  subject: z.string().trim().max(200, 'validation.contact.subjectTooLong'),
  message: z
    .string()
    .trim()
    .min(1, 'validation.contact.messageRequired')
    .max(5000, 'validation.contact.messageTooLong'),
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
