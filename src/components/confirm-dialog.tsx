import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

/**
 * The app's one "are you sure?" dialog (deleting a report or a news post, revoking an API key): a
 * title, what will happen, a button that keeps things as they are, and the action, which the caller
 * gives (a destructive button, or a form that posts to a route's action). While `pending`, the dialog
 * stays open and its keep button is disabled, so a change in flight is never left unseen.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  keepLabel,
  action,
  pending = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  keepLabel: string;
  action: ReactNode;
  pending?: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !pending) && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              {keepLabel}
            </Button>
          </DialogClose>
          {action}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
