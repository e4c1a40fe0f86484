import { Bug, MailWarning, ShieldAlert, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { UserStats } from '../api/get-user-stats';

/** docs/behaviour.md §3's summary card: count, title, icon, color, background. */
interface SummaryCard {
  key: keyof UserStats['defaultStats'];
  /** The card's title in the catalogues. */
  title: 'stats.cards.scam' | 'stats.cards.hacked' | 'stats.cards.spam';
  icon: LucideIcon;
  color: string;
  bcg: string;
  border: string;
}

const cards: SummaryCard[] = [
  {
    key: 'scam',
    title: 'stats.cards.scam',
    icon: ShieldAlert,
    color: 'text-red-700 dark:text-red-300',
    bcg: 'bg-red-100 dark:bg-red-950',
    border: 'border-b-red-600',
  },
  {
    key: 'hacked',
    title: 'stats.cards.hacked',
    icon: Bug,
    color: 'text-violet-700 dark:text-violet-300',
    bcg: 'bg-violet-100 dark:bg-violet-950',
    border: 'border-b-violet-600',
  },
  {
    key: 'spam',
    title: 'stats.cards.spam',
    icon: MailWarning,
    color: 'text-amber-700 dark:text-amber-300',
    bcg: 'bg-amber-100 dark:bg-amber-950',
    border: 'border-b-amber-500',
  },
];

export function StatsCards({ stats }: { stats: UserStats['defaultStats'] }) {
  const { t } = useTranslation();
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-3">
      {cards.map(({ key, title, icon: Icon, color, bcg, border }) => (
        <li key={key}>
          <Card className={cn('border-b-4 py-5', border)}>
            <CardContent className="flex items-center justify-between">
              <div>
                <p className={cn('text-4xl font-bold', color)} data-testid={`stat-${key}`}>
                  {formatNumber(stats[key])}
                </p>
                <h2 className="text-muted-foreground mt-1 font-medium">{t(title)}</h2>
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
