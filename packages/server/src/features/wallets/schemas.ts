import { ExactNumber, Network, Wallet } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { obj, Time } from '../../admin/views.js';

// What this feature's admin answers carry; each is trimmed to its schema before it is written.

export const AdminWalletView = obj({ merchantId: Type.String(), ...Wallet.properties });

export const WalletSummaryView = obj({
  id: Type.String(),
  merchantId: Type.String(),
  asset: Type.String(),
  chain: Type.String(),
  active: Type.Boolean(),
  amount: ExactNumber('Balance.'),
  freezeAmount: ExactNumber('Frozen part of the balance.'),
  createdAt: Time,
  updatedAt: Time,
});

export const NetworkView = Network;
