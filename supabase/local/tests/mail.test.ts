import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { stackCa, stackEnv, unique } from '../testing/index.ts';

interface MessageList {
  messages: { ID: string; Subject: string; To: { Address: string }[] }[];
}
interface Message {
  ID: string;
  Text: string;
  HTML: string;
}

describe('mail sink', () => {
  it('speaks SMTP with implicit TLS only, with a certificate the stack trusts', async () => {
    const port = Number(process.env.STACK_SMTP_PORT);
    const plain = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      connectionTimeout: 3000,
      greetingTimeout: 3000,
    });
    await expect(plain.verify()).rejects.toThrow();
    plain.close();
    const untrusted = nodemailer.createTransport({ host: '127.0.0.1', port, secure: true });
    await expect(untrusted.verify()).rejects.toThrow(/certificate/i);
    untrusted.close();
    const trusted = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: true,
      tls: { ca: stackCa() },
    });
    await expect(trusted.verify()).resolves.toBe(true);
    trusted.close();
  });

  it('keeps a message sent over SMTP and serves it through the Mailpit API', async () => {
    const to = `${unique('mail')}@example.com`;
    const smtpPort = Number(process.env.STACK_SMTP_PORT);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      secure: true,
      tls: { ca: stackCa() },
    });
    await transport.sendMail({
      from: 'test@example.com',
      to,
      subject: 'Hello sink',
      text: 'code 123456',
      html: '<p>code <b>123456</b></p>',
    });
    transport.close();

    const list = (await (
      await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/search?query=to:${to}`)
    ).json()) as MessageList;
    expect(list.messages).toHaveLength(1);
    expect(list.messages[0]).toMatchObject({ Subject: 'Hello sink', To: [{ Address: to }] });

    const one = (await (
      await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/message/${list.messages[0].ID}`)
    ).json()) as Message;
    expect(one.Text).toContain('123456');
    expect(one.HTML).toContain('<b>123456</b>');

    const del = await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/messages`, {
      method: 'DELETE',
      body: JSON.stringify({ IDs: [one.ID] }),
    });
    expect(del.status).toBe(200);
    expect((await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/message/${one.ID}`)).status).toBe(404);
  });
});
