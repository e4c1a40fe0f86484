import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Auth } from '@supabase/auth-ui-react';
import { ThemeSupa, type I18nVariables, type ViewType } from '@supabase/auth-ui-shared';
import { supabase } from '@/lib/supabase';
import { useTheme } from '@/lib/theme';
import { withAuthErrorToasts } from '../api/auth-error-toasts';

const client = withAuthErrorToasts(supabase);

/**
 * Supabase's Auth UI, themed with the site's own CSS variables so it follows the light and dark
 * themes like the shadcn components around it.
 */
const colors = {
  brand: 'var(--primary)',
  brandAccent: 'color-mix(in oklch, var(--primary) 88%, black)',
  brandButtonText: 'var(--primary-foreground)',
  defaultButtonBackground: 'var(--background)',
  defaultButtonBackgroundHover: 'var(--accent)',
  defaultButtonBorder: 'var(--input)',
  defaultButtonText: 'var(--foreground)',
  dividerBackground: 'var(--border)',
  inputBackground: 'transparent',
  inputBorder: 'var(--input)',
  inputBorderHover: 'var(--ring)',
  inputBorderFocus: 'var(--ring)',
  inputText: 'var(--foreground)',
  inputLabelText: 'var(--foreground)',
  inputPlaceholder: 'var(--muted-foreground)',
  messageText: 'var(--foreground)',
  messageBackground: 'var(--muted)',
  messageBorder: 'var(--border)',
  messageTextDanger: 'var(--destructive)',
  messageBackgroundDanger: 'color-mix(in oklch, var(--destructive) 10%, transparent)',
  messageBorderDanger: 'color-mix(in oklch, var(--destructive) 40%, transparent)',
  anchorTextColor: 'var(--primary)',
  anchorTextHoverColor: 'var(--primary)',
};

const variables = {
  colors,
  radii: {
    borderRadiusButton: 'calc(var(--radius) - 2px)',
    buttonBorderRadius: 'calc(var(--radius) - 2px)',
    inputBorderRadius: 'calc(var(--radius) - 2px)',
  },
  fonts: {
    bodyFontFamily: 'inherit',
    buttonFontFamily: 'inherit',
    inputFontFamily: 'inherit',
    labelFontFamily: 'inherit',
  },
  fontSizes: {
    baseBodySize: '0.875rem',
    baseInputSize: '1rem',
    baseLabelSize: '0.875rem',
    baseButtonSize: '0.875rem',
  },
  space: { inputPadding: '0.6rem 0.75rem', buttonPadding: '0.6rem 1rem' },
};

/** Auth UI's own labels, in the reader's language (its `localization` prop). */
export function authUiLocalization(t: TFunction): I18nVariables {
  return {
    sign_in: {
      email_label: t('auth.ui.email'),
      password_label: t('auth.ui.password'),
      email_input_placeholder: 'you@example.com',
      password_input_placeholder: t('auth.ui.passwordPlaceholder'),
      button_label: t('auth.ui.login'),
      loading_button_label: t('auth.ui.loggingIn'),
    },
    forgotten_password: {
      email_label: t('auth.ui.email'),
      email_input_placeholder: 'you@example.com',
      button_label: t('auth.ui.sendResetCode'),
      loading_button_label: t('auth.ui.sending'),
      confirmation_text: t('auth.ui.resetCodeSent'),
    },
    verify_otp: {
      email_input_label: t('auth.ui.email'),
      email_input_placeholder: 'you@example.com',
      token_input_label: t('auth.ui.codeLabel'),
      token_input_placeholder: '123456',
      button_label: t('auth.ui.verifyCode'),
      loading_button_label: t('auth.ui.verifying'),
    },
    update_password: {
      password_label: t('auth.ui.newPassword'),
      password_input_placeholder: t('auth.ui.newPasswordPlaceholder'),
      button_label: t('auth.ui.savePassword'),
      loading_button_label: t('auth.ui.saving'),
      confirmation_text: t('auth.passwordUpdated'),
    },
  };
}

export function ThemedAuth({
  view,
  otpType,
  redirectTo,
}: {
  view: ViewType;
  otpType?: 'recovery' | 'signup';
  redirectTo?: string;
}) {
  const { isDark } = useTheme();
  const { t } = useTranslation();
  return (
    <Auth
      supabaseClient={client}
      view={view}
      otpType={otpType}
      redirectTo={redirectTo}
      showLinks={false}
      providers={[]}
      dark={isDark}
      appearance={{ theme: ThemeSupa, variables: { default: variables, dark: variables } }}
      localization={{ variables: authUiLocalization(t) }}
    />
  );
}
