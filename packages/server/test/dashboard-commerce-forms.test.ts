import { CreateInvoiceBody, CreatePaymentLinkBody, UpdateInvoiceBody, UpdatePaymentLinkBody } from '@hostpay/protocol';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import {
  emptyInvoiceForm,
  emptyLinkForm,
  invoiceBody,
  invoiceFormOf,
  linkCreateBody,
  linkEditOf,
  linkPatchBody,
} from '../dashboard/commerce-forms.js';
// The server's request validation registers `date-time` as the routes check it.
import '../src/http/validator.js';

/**
 * The bodies the dashboard's payment-link and invoice forms send: each one the merchant API's own
 * schema accepts (checked as the server checks it), with the price mode chosen, empty optional
 * fields left out on create and cleared (null) on edit, UTC times, and only changed fields in a
 * link's PATCH (an expiry already past is not sent back to be refused).
 */
const accepts = (schema: TSchema, body: unknown) => {
  const check = TypeCompiler.Compile(schema);
  expect([...check.Errors(body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
};

describe('payment-link bodies', () => {
  it('a fixed price: the amount as typed, nothing optional', () => {
    const body = linkCreateBody({ ...emptyLinkForm(), name: ' Tee ', amount: ' 19.90 ' });
    expect(body).toEqual({ name: 'Tee', currency: 'EUR', amount: '19.90' });
    accepts(CreatePaymentLinkBody, body);
  });

  it('line items: whole quantities as numbers, no amount; email, URLs, max uses and expiry (UTC)', () => {
    const body = linkCreateBody({
      ...emptyLinkForm(),
      name: 'Class',
      pricing: 'items',
      amount: '99', // typed before switching to line items: not sent
      lines: [
        { name: 'Lesson', quantity: '2', unitAmount: '12.5' },
        { name: 'Mat', quantity: '1', unitAmount: '5' },
      ],
      collectEmail: 'required',
      successUrl: 'https://shop.example/ok/{CHECKOUT_ID}',
      maxUses: '3',
      expiresAt: '2027-01-31T18:30',
    });
    expect(body).toEqual({
      name: 'Class',
      currency: 'EUR',
      lineItems: [
        { name: 'Lesson', quantity: 2, unitAmount: '12.5' },
        { name: 'Mat', quantity: 1, unitAmount: '5' },
      ],
      collectEmail: 'required',
      successUrl: 'https://shop.example/ok/{CHECKOUT_ID}',
      maxUses: 3,
      expiresAt: '2027-01-31T18:30:00.000Z',
    });
    accepts(CreatePaymentLinkBody, body);
  });

  it('typed by the payer: only the bounds given', () => {
    const body = linkCreateBody({ ...emptyLinkForm(), name: 'Tip', pricing: 'open', minAmount: '1', amount: '5' });
    expect(body).toEqual({ name: 'Tip', currency: 'EUR', minAmount: '1' });
    accepts(CreatePaymentLinkBody, body);
  });

  it('a quantity that is not a whole number goes as typed, for the server to refuse', () => {
    const body = linkCreateBody({
      ...emptyLinkForm(),
      name: 'x',
      pricing: 'items',
      lines: [{ name: 'a', quantity: '1.5', unitAmount: '1' }],
    });
    expect(body.lineItems).toEqual([{ name: 'a', quantity: '1.5', unitAmount: '1' }]);
    expect(TypeCompiler.Compile(CreatePaymentLinkBody).Check(body)).toBe(false);
  });

  it('an edit sends only what changed; an emptied field clears it', () => {
    const before = linkEditOf({
      name: 'Class',
      description: 'Weekly',
      maxUses: '3',
      expiresAt: '2020-01-01T00:00:00.000Z',
      successUrl: 'https://shop.example/ok',
      cancelUrl: null,
    });
    expect(before.expiresAt).toBe('2020-01-01T00:00');
    expect(linkPatchBody(before, before)).toEqual({});
    const body = linkPatchBody(before, { ...before, name: 'Class 2', description: '', maxUses: '' });
    expect(body).toEqual({ name: 'Class 2', description: null, maxUses: null });
    accepts(UpdatePaymentLinkBody, body);
    const later = linkPatchBody(before, {
      ...before,
      expiresAt: '2030-05-01T12:00',
      cancelUrl: 'https://shop.example/c',
    });
    expect(later).toEqual({ expiresAt: '2030-05-01T12:00:00.000Z', cancelUrl: 'https://shop.example/c' });
    accepts(UpdatePaymentLinkBody, later);
  });
});

describe('invoice bodies', () => {
  it('the whole draft: customer, lines with tax only where typed, memo, due at the end of the UTC day', () => {
    const body = invoiceBody({
      currency: 'USDT',
      customerName: ' Ada ',
      customerEmail: 'ada@example.com',
      lines: [
        { description: 'Hosting', quantity: '2', unitAmount: '40', taxPercent: '25' },
        { description: 'Setup', quantity: '', unitAmount: '20', taxPercent: '' },
        { description: '', quantity: '1', unitAmount: '', taxPercent: '' },
      ],
      memo: 'Thanks',
      dueDate: '2027-02-28',
    });
    expect(body).toEqual({
      currency: 'USDT',
      customer: { name: 'Ada', email: 'ada@example.com' },
      lineItems: [
        { description: 'Hosting', quantity: '2', unitAmount: '40', taxPercent: '25' },
        { description: 'Setup', quantity: '1', unitAmount: '20' },
      ],
      memo: 'Thanks',
      dueAt: '2027-02-28T23:59:59.000Z',
    });
    accepts(CreateInvoiceBody, body);
    accepts(UpdateInvoiceBody, body);
  });

  it('an empty form is an empty draft the API accepts; cleared fields are null', () => {
    const body = invoiceBody(emptyInvoiceForm());
    expect(body).toEqual({
      currency: 'EUR',
      customer: { name: null, email: null },
      lineItems: [],
      memo: null,
      dueAt: null,
    });
    accepts(CreateInvoiceBody, body);
  });

  it('a draft read back fills the form it was saved from', () => {
    const form = invoiceFormOf({
      currency: 'EUR',
      customer: { name: null, email: 'b@example.com' },
      lineItems: [{ description: 'x', quantity: '1.5', unitAmount: '3', taxPercent: null }],
      memo: null,
      dueAt: '2027-03-01T23:59:59.000Z',
    });
    expect(form).toEqual({
      currency: 'EUR',
      customerName: '',
      customerEmail: 'b@example.com',
      lines: [{ description: 'x', quantity: '1.5', unitAmount: '3', taxPercent: '' }],
      memo: '',
      dueDate: '2027-03-01',
    });
    expect(invoiceBody(form)).toMatchObject({ dueAt: '2027-03-01T23:59:59.000Z', lineItems: [{ quantity: '1.5' }] });
  });
});
