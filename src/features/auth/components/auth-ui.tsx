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

export const authUiLocalization: I18nVariables = {
  sign_in: {
    email_label: 'Email',
    password_label: 'Password',
    email_input_placeholder: 'you@example.com',
    password_input_placeholder: 'Your password',
    button_label: 'Login',
    loading_button_label: 'Logging in...',
  },
  forgotten_password: {
    email_label: 'Email',
    email_input_placeholder: 'you@example.com',
    button_label: 'Send me a reset code',
    loading_button_label: 'Sending...',
    confirmation_text: 'If an account exists for this e-mail, a 6-digit reset code is on its way.',
  },
  verify_otp: {
    email_input_label: 'Email',
    email_input_placeholder: 'you@example.com',
    token_input_label: '6-digit code from the e-mail',
    token_input_placeholder: '123456',
    button_label: 'Verify code',
    loading_button_label: 'Verifying...',
  },
  update_password: {
    password_label: 'New password',
    password_input_placeholder: 'At least 8 characters',
    button_label: 'Save new password',
    loading_button_label: 'Saving...',
    confirmation_text: 'Your password has been updated',
  },
};

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
      localization={{ variables: authUiLocalization }}
    />
  );
}
