import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail { to: string[]; text: string }

/**
 * A loopback SMTP server without TLS or authentication; messages are kept, quoted-printable
 * soft line breaks and encoded '=' decoded.
 * @example const smtp = await startPlainSmtpServer(); ...; smtp.mails[0].text; await smtp.close();
 */
export async function startPlainSmtpServer() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
