import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { emailHash, rememberSignupEmail } from '@/features/auth/api/pending-signup';
import { RegisterForm } from '@/features/auth/components/register-form';

export function Component() {
  const navigate = useNavigate();

  async function onRegistered({ email }: { email: string }) {
    toast.success('Please Confirm your email!');
    rememberSignupEmail(email);
    navigate(paths.auth.twoFactor.getHref(await emailHash(email)));
  }

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl">Register</h1>
          </CardTitle>
          <CardDescription>
            A free account lets you report scams, keep track of your reports and get notified when a number or
            account you care about is reported.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <RegisterForm onSuccess={onRegistered} />
        </CardContent>
        <CardFooter className="text-muted-foreground flex flex-col items-start gap-2 text-sm">
          <p>
            Already registered?{' '}
            <Link to={paths.auth.login.getHref()} className="text-primary underline underline-offset-4">
              Login
            </Link>
          </p>
          <p>
            By registering you accept our{' '}
            <Link to={paths.tos.getHref()} className="text-primary underline underline-offset-4">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to={paths.privacy.getHref()} className="text-primary underline underline-offset-4">
              Privacy Policy
            </Link>
            .
          </p>
        </CardFooter>
      </Card>
    </div>
  );
}
