import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { useUser } from '@/lib/auth';
import { ContactForm } from '@/features/contact/components/contact-form';

export function Component() {
  const navigate = useNavigate();
  const user = useUser();
  return (
    <StaticPage
      title="Contact us"
      lead="Questions, a report to correct, a removal request or an idea: write to us and we will answer by e-mail."
    >
      <ContactForm
        defaultEmail={user?.email ?? ''}
        onSuccess={() => {
          toast.success("We'll review this ASAP & we'll get back to you");
          navigate(paths.home.getHref());
        }}
      />
      <h2>Other ways to reach us</h2>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
