// The mail sender in a process of its own, over a test's store (its data directory, and its
// PostgreSQL schema when MAIL_DATABASE_URL is set), sending to the test's SMTP server: one
// round. With MAIL_KILL_AFTER_CLAIM=1 it kills itself with SIGKILL right after it leased mails
// and before it sent any. Runs the compiled dist/.
import { createServices } from '../../dist/services.js';

const env = process.env;
const services = await createServices(
  {
    dataDir: env.MAIL_DATA_DIR,
    databaseUrl: env.MAIL_DATABASE_URL ?? '',
    databaseSchema: env.MAIL_DATABASE_SCHEMA ?? '',
    masterKey: '',
    instanceId: 'child',
    smtpUrl: env.MAIL_SMTP_URL,
    mailFrom: 'billing@pay.example.com',
  },
  {
    mail: {
      sender: env.MAIL_KILL_AFTER_CLAIM === '1' ? { afterClaim: () => process.kill(process.pid, 'SIGKILL') } : {},
    },
  },
);
await services.mail.sender.runOnce();
await services.close();
