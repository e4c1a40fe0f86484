import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { KeyRound, LogOut, Menu, UserRound } from 'lucide-react';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { paths } from '@/config/paths';
import type { Profile } from '@/lib/auth';
import { toastError } from '@/lib/errors';
import { supabase } from '@/lib/supabase';
import { ChangePasswordDialog } from './change-password-dialog';

/** The avatars bucket is public, so the top bar shows the image by its plain URL. */
export function avatarUrl(path: string | null | undefined): string | undefined {
  return path ? supabase.storage.from('avatars').getPublicUrl(path).data.publicUrl : undefined;
}

export function UserAvatar({ profile, className }: { profile: Pick<Profile, 'name' | 'avatarPath'> | undefined; className?: string }) {
  return (
    <Avatar className={className}>
      {profile?.avatarPath && <AvatarImage src={avatarUrl(profile.avatarPath)} alt="" className="object-cover" />}
      <AvatarFallback>
        <UserRound className="size-4" aria-hidden />
      </AvatarFallback>
    </Avatar>
  );
}

/**
 * The top bar: menu button (narrow screens), logo to the site root, a greeting with the user's name
 * and avatar, the theme toggle and the user menu (Change Password, logout).
 */
export function DashboardTopbar({ profile, onOpenMenu }: { profile: Profile | undefined; onOpenMenu: () => void }) {
  const navigate = useNavigate();
  const [passwordOpen, setPasswordOpen] = useState(false);

  async function logout() {
    // Leave the dashboard first, so its guard does not turn the logout into a login prompt.
    navigate(paths.home.getHref());
    const { error } = await supabase.auth.signOut();
    if (error) toastError(error);
    else toast.success('Logout Sucessfully');
  }

  return (
    <header className="bg-background/95 supports-[backdrop-filter]:bg-background/80 sticky top-0 z-30 flex h-16 items-center gap-2 border-b px-4 backdrop-blur md:px-6">
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu" onClick={onOpenMenu}>
        <Menu aria-hidden />
      </Button>
      <Logo className="lg:hidden" />
      <p className="ml-auto hidden truncate text-sm sm:block lg:ml-0 lg:text-base" data-testid="greeting">
        Hello, <span className="font-semibold">{profile?.name ?? '…'}</span>
      </p>
      <div className="ml-auto flex items-center gap-1 sm:ml-2 lg:ml-auto">
        <ThemeToggle />
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" className="h-10 gap-2 rounded-full px-1.5" aria-label="User menu">
              <UserAvatar profile={profile} className="size-8" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-56">
            <DropdownMenuLabel className="truncate">
              {profile?.name}
              <span className="text-muted-foreground block truncate text-xs font-normal">{profile?.email}</span>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => setPasswordOpen(true)}>
              <KeyRound aria-hidden />
              Change Password
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => void logout()}>
              <LogOut aria-hidden />
              Logout
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
    </header>
  );
}
