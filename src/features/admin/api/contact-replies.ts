import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { invokeFunction } from '@/lib/functions';
import { adminKeys } from './keys';

const extrasSchema = z.record(
  z.string(),
  z.object({
    handled_by_email: z.string().nullable(),
    replies: z.array(
      z.object({
        id: z.string(),
        body: z.string(),
        sent_to: z.string(),
        created_at: z.string(),
        sent_at: z.string().nullable(),
        send_error: z.string().nullable(),
        admin_email: z.string().nullable(),
      }),
    ),
    reports: z.array(z.object({ id: z.string(), reported_account: z.string(), status: z.string() })),
  }),
);
export type MessageExtras = z.infer<typeof extrasSchema>[string];

export const REPLY_MAX = 5000;
export const replySchema = z.object({
  body: z
    .string()
    .refine((v) => v.trim().length > 0, { message: 'admin.messages.replyRequired' })
    .refine((v) => v.trim().length <= REPLY_MAX, { message: 'admin.messages.replyLong' }),
});

/**
 * Who handled a contact message, its e-mailed replies and the reports it names by id
 * (public.admin_contact_message_extras, admins only).
 */
export function useMessageExtras(id: string) {
  return useQuery({
    queryKey: [...adminKeys.all, 'message-extras', id] as const,
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_contact_message_extras', { message_ids: [id] });
      if (error) throw error;
      return extrasSchema.parse(data)[id] ?? null;
    },
  });
}

/**
 * Replies by e-mail (the contact-reply function: the database stores the reply and marks the message
 * handled by the admin; the function sends it over SMTP).
 */
export function useReplyToMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      invokeFunction<{ reply: string; sent: boolean }>('contact-reply', { message: id, body: body.trim() }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
