import { defineFeature } from '../../feature-kit/feature.js';
import type { Db } from '../../store/store.js';
import { mailAdmin } from './admin.js';
import { mailAdminRoutes } from './admin-routes.js';
import { mailDashboardRoutes } from './dashboard-routes.js';
import { enqueueMail, type MailRequest } from './enqueue.js';
import { notificationsOwed } from './notify.js';
import { mailPreferences } from './preferences-service.js';
import { MailSender, type MailSenderOptions } from './sender.js';
import { mailMigrations } from './tables.js';
import { BUILT_IN_TEMPLATES } from './templates.js';
import { smtpTransport, type TransportOptions } from './transport.js';

export interface MailFeatureOptions {
  /** Options of the SMTP transport (a private server's CA, timeouts). */
  transport?: TransportOptions;
  sender?: Partial<Pick<MailSenderOptions, 'pollMs' | 'leaseMs' | 'batch' | 'retryMs' | 'afterClaim'>>;
}

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The mail outbox and its sender (features/mail, docs/mail.md). */
    mail: Mail;
  }
  interface StartOptions {
    /** false: the mail sender is not started (tests drive it by hand). Default true. */
    mailSender?: boolean;
  }
  interface FeatureOptions {
    mail?: MailFeatureOptions;
  }
}

/** The sender address: HOSTPAY_MAIL_FROM, else hostpay@ the public URL's host. */
export function mailFromOf(config: { mailFrom: string; publicUrl: string }): string {
  if (config.mailFrom !== '') return config.mailFrom;
  let host = 'localhost';
  try {
    if (config.publicUrl !== '') host = new URL(config.publicUrl).hostname || host;
  } catch {}
  return `hostpay@${host.replace(/^\[|\]$/g, '')}`;
}

export interface Mail {
  /**
   * Writes one mail owed in the caller's transaction (enqueue.ts, MailRequest): it is sent after
   * the commit by the leased sender, rendered by the template of its `kind`. Returns its id.
   */
  enqueue(trx: Db, mail: MailRequest): Promise<string>;
  sender: MailSender;
  /** Another sender over the same store, as a second instance would run (tests). */
  spawnSender(overrides?: Partial<MailSenderOptions>): MailSender;
  preferences: ReturnType<typeof mailPreferences>;
  admin: ReturnType<typeof mailAdmin>;
}

/** Email: the outbox, its leased sender, templates and layout, notification preferences, bounces. */
export const mailFeature = defineFeature({
  name: 'mail',
  migrations: mailMigrations,
  needs: ['store', 'box', 'config', 'log', 'now', 'identity', 'options', 'publicBaseUrl'],
  provides: ['mail'],
  consumes: ['mailTemplates'],
  // Every appended event owes the merchant notifications its users asked for (notify.ts).
  contributes: { outboxSubscribers: () => [notificationsOwed] },
  create({ store, box, config, log, now, identity, options, publicBaseUrl }, contributed) {
    const clock = now ?? Date.now;
    const renderDeps = {
      db: store.db,
      box,
      baseUrl: publicBaseUrl,
      sandbox: config.sandbox ?? false,
      templates: () => [...BUILT_IN_TEMPLATES, ...contributed.mailTemplates()],
    };
    const transport =
      (config.smtpUrl ?? '') === '' ? null : smtpTransport(config.smtpUrl as string, options.mail?.transport);
    const senderOptions: MailSenderOptions = {
      ...renderDeps,
      store,
      transport,
      from: mailFromOf({ mailFrom: config.mailFrom ?? '', publicUrl: config.publicUrl ?? '' }),
      owner: identity.owner,
      earlier: `${identity.id}/`,
      now: clock,
      leaseMs: 60_000,
      pollMs: 2_000,
      batch: 20,
      payerDailyLimit: config.mailPayerDailyLimit ?? 200,
      recipientHourlyLimit: config.mailRecipientHourlyLimit ?? 20,
      log,
      ...options.mail?.sender,
    };
    const sender = new MailSender(senderOptions);
    const mail: Mail = {
      enqueue: (trx, m) => enqueueMail(trx, m, new Date(clock()).toISOString(), box),
      sender,
      spawnSender: (overrides = {}) => new MailSender({ ...senderOptions, ...overrides }),
      preferences: mailPreferences(store, clock),
      admin: mailAdmin(renderDeps),
    };
    return {
      mail,
      async close() {
        await sender.stop();
        transport?.close();
      },
    };
  },
  admin: ({ mail }) => mail.admin,
  merchantRoutes: [mailDashboardRoutes],
  adminRoutes: [mailAdminRoutes],
  start: ({ mail }) => mail.sender.start(),
  startOption: 'mailSender',
});
