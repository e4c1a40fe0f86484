import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { accountTypeLabel, formatDate } from '@/lib/format';
import { useDeleteRegistration, type NotifyRegistration } from '../api/registrations';

export function RegistrationList({ registrations }: { registrations: NotifyRegistration[] }) {
  const remove = useDeleteRegistration();
  if (registrations.length === 0)
    return <p className="text-muted-foreground">You are not watching any identifier yet.</p>;
  return (
    <ul className="divide-y rounded-md border" aria-label="Registered identifiers">
      {registrations.map((r) => (
        <li key={r.id} className="flex items-center gap-3 px-4 py-3">
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{r.identifier_canonical}</p>
            <p className="text-muted-foreground text-xs">
              {accountTypeLabel(r.identifier_kind)} · since {formatDate(r.created_at)}
            </p>
          </div>
          <Button
            variant="ghost"
            size="sm"
            disabled={remove.isPending && remove.variables === r.id}
            onClick={() => remove.mutate(r.id)}
            aria-label={`Remove ${r.identifier_canonical}`}
          >
            <Trash2 aria-hidden />
            <span className="hidden sm:inline">Remove</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
