import { Bug, MailWarning, ShieldAlert, type LucideIcon } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { UserStats } from '../api/get-user-stats';

/** docs/behaviour.md §3's summary card: count, title, icon, color, background. */
interface SummaryCard {
  key: keyof UserStats['defaultStats'];
  title: string;
  icon: LucideIcon;
  color: string;
  bcg: string;
  border: string;
}

const cards: SummaryCard[] = [
  {
    key: 'scam',
    title: 'Scam reports',
    icon: ShieldAlert,
    color: 'text-red-700 dark:text-red-300',
    bcg: 'bg-red-100 dark:bg-red-950',
    border: 'border-b-red-600',
  },
  {
    key: 'hacked',
    title: 'Hacked reports',
    icon: Bug,
    color: 'text-violet-700 dark:text-violet-300',
    bcg: 'bg-violet-100 dark:bg-violet-950',
    border: 'border-b-violet-600',
  },
  {
    key: 'spam',
    title: 'Spam reports',
    icon: MailWarning,
    color: 'text-amber-700 dark:text-amber-300',
    bcg: 'bg-amber-100 dark:bg-amber-950',
    border: 'border-b-amber-500',
  },
];

export function StatsCards({ stats }: { stats: UserStats['defaultStats'] }) {
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-3">
      {cards.map(({ key, title, icon: Icon, color, bcg, border }) => (
        <li key={key}>
          <Card className={cn('border-b-4 py-5', border)}>
            <CardContent className="flex items-center justify-between">
              <div>
                <p className={cn('text-4xl font-bold', color)} data-testid={`stat-${key}`}>
                  {stats[key]}
                </p>
                <h2 className="text-muted-foreground mt-1 font-medium">{title}</h2>
              </div>
              <span className={cn('flex size-12 items-center justify-center rounded-lg', bcg, color)}>
                <Icon className="size-6" aria-hidden />
              </span>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
