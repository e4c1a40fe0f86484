import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Trans, useTranslation } from 'react-i18next';
import { KeyRound, LogOut, Menu, UserRound } from 'lucide-react';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { LanguageSwitch } from '@/components/language-switch';
import { paths } from '@/config/paths';
import { setLoggingOut, type Profile } from '@/lib/auth';
import { supabase } from '@/lib/supabase';
import { ChangePasswordDialog } from './change-password-dialog';

/** The avatars bucket is public, so the top bar shows the image by its plain URL. */
export function avatarUrl(path: string | null | undefined): string | undefined {
  return path ? supabase.storage.from('avatars').getPublicUrl(path).data.publicUrl : undefined;
}

export function UserAvatar({
  profile,
  className,
}: {
  profile: Pick<Profile, 'name' | 'avatarPath'> | undefined;
  className?: string;
}) {
  return (
    <Avatar className={className}>
      {profile?.avatarPath && (
        <AvatarImage src={avatarUrl(profile.avatarPath)} alt="" className="object-cover" />
      )}
      <AvatarFallback>
        <UserRound className="size-4" aria-hidden />
      </AvatarFallback>
    </Avatar>
  );
}

/** The name's first word, for the greeting on narrow screens. */
export function firstName(name: string | undefined): string {
  return name?.trim().split(/\s+/)[0] || '…';
}

/**
 * The top bar: menu button (narrow screens), logo to the site root, a greeting with the user's name
 * and avatar, the theme toggle and the user menu (Change Password, logout).
 */
export function DashboardTopbar({
  profile,
  onOpenMenu,
}: {
  profile: Profile | undefined;
  onOpenMenu: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [passwordOpen, setPasswordOpen] = useState(false);

  /**
   * Ends on the home page: while the session ends the dashboard's login guard stands aside (it would
   * otherwise send the now signed-out user to the login prompt), then the user goes home. 'local'
   * signs out this browser only; 'global' ends every session of the account (other devices, the
   * legacy API's cookie session), when the user asks. A failure is the MutationCache's toast.
   */
  const logout = useMutation({
    mutationFn: async (scope: 'local' | 'global') => {
      setLoggingOut(true);
      try {
        await navigate(paths.home.getHref());
        const { error } = await supabase.auth.signOut({ scope });
        await navigate(paths.home.getHref(), { replace: true });
        if (error) throw error;
      } finally {
        // After React has rendered the signed-out state on the home page.
        setTimeout(() => setLoggingOut(false), 1000);
      }
    },
    onSuccess: (_, scope) =>
      toast.success(
        scope === 'global' ? t('dashboard.topbar.loggedOutAll') : t('dashboard.topbar.loggedOut'),
      ),
  });

  return (
    <header className="bg-background/95 supports-[backdrop-filter]:bg-background/80 sticky top-0 z-30 flex h-16 items-center gap-1 border-b px-3 sm:gap-2 sm:px-4 backdrop-blur md:px-6">
      <Button
        variant="ghost"
        size="icon"
        className="lg:hidden"
        aria-label={t('nav.openMenu')}
        onClick={onOpenMenu}
      >
        <Menu aria-hidden />
      </Button>
      <Logo className="shrink-0 lg:hidden" compact />
      {/* Every screen greets by name (docs/behaviour.md); below 640px by the first name, cut short if long. */}
      <p
        className="ml-auto min-w-0 truncate text-sm sm:max-w-none lg:ml-0 lg:text-base"
        data-testid="greeting"
      >
        <Trans
          i18nKey="dashboard.topbar.hello"
          values={{ short: firstName(profile?.name), full: profile?.name ?? '…' }}
          components={{
            short: <span className="font-semibold sm:hidden" />,
            full: <span className="hidden font-semibold sm:inline" />,
          }}
        />
      </p>
      <div className="ml-auto flex items-center gap-1 sm:ml-2 lg:ml-auto">
        <LanguageSwitch />
        <ThemeToggle />
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              className="h-10 gap-2 rounded-full px-1.5"
              aria-label={t('dashboard.topbar.userMenu')}
            >
              <UserAvatar profile={profile} className="size-8" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-56">
            <DropdownMenuLabel className="truncate">
              {profile?.name}
              <span className="text-muted-foreground block truncate text-xs font-normal">
                {profile?.email}
              </span>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => setPasswordOpen(true)}>
              <KeyRound aria-hidden />
              {t('dashboard.topbar.changePassword')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => logout.mutate('local')}>
              <LogOut aria-hidden />
              {t('dashboard.topbar.logout')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => logout.mutate('global')}>
              <LogOut aria-hidden />
              {t('dashboard.topbar.logoutAll')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
    </header>
  );
}
