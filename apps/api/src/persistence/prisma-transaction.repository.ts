import {
  answeringAttempt,
  DuplicateErrors,
  moneyFromText,
  oneOf,
  parseCallbackPayload,
  REQUEST_TYPES,
  Transaction,
  TRANSACTION_STATUSES,
  type MerchantTransactionFilter,
  type OriginalValues,
  type Page,
  type PageRequest,
  type RequestInfo,
  type TransactionAnomaly,
  type TransactionRepository,
  type TransactionState,
  type Mutable,
} from '@transport/domain';
import { transactionRow } from '@transport/rows';
import type { CompiledQuery } from 'kysely';
import { Prisma, type Transaction as ModelRow } from '../generated/prisma/client';
import { mapped, MappingError } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { sqlOn, type PrismaExecutor, type Sql, type WithMoneyText } from './prisma-executor';
import { orderedPage } from './paging';
import { translateUniqueViolation } from './prisma-errors';

/** A transaction's row from Prisma's models (money as Decimal) or from Kysely (money as text). */
type TransactionRow = ModelRow | WithMoneyText<ModelRow>;

function anomalies(row: TransactionRow): TransactionAnomaly[] {
  if (!Array.isArray(row.anomalies)) throw new MappingError('transactions', row.id, 'anomalies is not a list');
  return row.anomalies.map((a) => {
    const { at: stored, ...item } = (a ?? {}) as Record<string, unknown>;
    const at = new Date(String(stored));
    if (Number.isNaN(at.getTime())) throw new MappingError('transactions', row.id, 'an anomaly has no valid time');
    return { ...(item as Omit<TransactionAnomaly, 'at'>), at };
  });
}

/** The provider's answer to the request, as stored; one without a ResponseCode cannot be mapped. */
function requestInfoOf(row: TransactionRow): RequestInfo | null {
  const info: unknown = row.requestInfo;
  if (info === null) return null;
  if (typeof info !== 'object' || !('ResponseCode' in info) || typeof info.ResponseCode !== 'string')
    throw new MappingError('transactions', row.id, 'requestInfo has no ResponseCode');
  return info as RequestInfo;
}

/** A numeric column as exact text: Prisma's Decimal (its models) or the text Kysely reads (prisma-executor.ts). */
export function decimalText(value: Prisma.Decimal | string): string {
  return typeof value === 'string' ? value : value.toFixed();
}

export function toDomain(row: TransactionRow): Transaction {
  return mapped('transactions', row.id, () => {
    const info = requestInfoOf(row);
    const s: Mutable<TransactionState> = {
      id: row.id,
      merchantId: row.merchantId,
      amount: moneyFromText(decimalText(row.amount), 'amount'),
      status: oneOf(TRANSACTION_STATUSES, row.status, 'status'),
      requestType: oneOf(REQUEST_TYPES, row.requestType, 'requestType'),
      description: row.description,
      reference: row.reference,
      providerReference: row.providerReference,
      callBackUrl: row.callBackUrl,
      customerEmail: row.customerEmail,
      customerName: row.customerName,
      customerPhone: row.customerPhone,
      needsStatusCheck: row.needsStatusCheck,
      anomalies: anomalies(row),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    if (row.fees !== null) s.fees = moneyFromText(decimalText(row.fees), 'fees');
    if (info !== null) s.requestInfo = info;
    if (row.providerTransactionId !== null) s.providerTransactionId = row.providerTransactionId;
    if (row.callBackInfo !== null) s.callBackInfo = parseCallbackPayload(row.callBackInfo);
    if (row.callBackTime !== null) s.callBackTime = row.callBackTime;
    if (row.statusCheckInfo !== null) s.statusCheckInfo = row.statusCheckInfo as Record<string, unknown>;
    if (row.statusCheckTime !== null) s.statusCheckTime = row.statusCheckTime;
    if (row.originalValues !== null) s.originalValues = row.originalValues as OriginalValues;
    return Transaction.restore(s);
  });
}

/** The transaction's row as Prisma takes it: a JSON column set to NULL is Prisma's DbNull. */
function toPersistence(s: TransactionState) {
  const row = transactionRow(s);
  return {
    ...row,
    requestInfo: row.requestInfo ?? Prisma.DbNull,
    originalValues: row.originalValues ?? Prisma.DbNull,
  };
}

/**
 * The status check's statement (every attempt under a merchant's reference), built and compiled by Kysely once: it is
 * the same text for every check, and building it again cost 4-8 µs of each answer. Its parameters are the merchant's
 * id, then the reference.
 */
let byMerchantReference: CompiledQuery<TransactionRow> | undefined;
const attemptsUnder = (sql: Sql, merchantId: string, reference: string): CompiledQuery<TransactionRow> => {
  byMerchantReference ??= sql
    .selectFrom('transactions')
    .selectAll()
    .where('merchantId', '=', '')
    .where('reference', '=', '')
    .compile() as CompiledQuery<TransactionRow>;
  return { ...byMerchantReference, parameters: [merchantId, reference] };
};

const uniqueErrors = {
  reference: DuplicateErrors.transactionReference,
  merchantId: DuplicateErrors.transactionReference,
  providerReference: DuplicateErrors.transactionReference,
};

/** Writes and jobs' reads through Prisma's models; a merchant's status check and list through Kysely (`sqlOn`). */
export class PrismaTransactionRepository implements TransactionRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(transaction: Transaction): Promise<Transaction> {
    try {
      return toDomain(await this.db.transaction.create({ data: toPersistence(transaction.toState()) }));
    } catch (error) {
      translateUniqueViolation(error, uniqueErrors);
    }
  }

  async update(transaction: Transaction): Promise<Transaction> {
    const s = transaction.toState();
    const { id, createdAt: _c, ...data } = toPersistence(s);
    const { count } = await this.db.transaction.updateMany({
      where: { id, version: s.version },
      data: { ...data, version: s.version + 1 },
    });
    await assertOneUpdated(count, 'transaction', id, () =>
      this.db.transaction.findUnique({ where: { id }, select: { id: true } }),
    );
    return Transaction.restore({ ...s, version: s.version + 1 });
  }

  async findById(id: string): Promise<Transaction | undefined> {
    const row = await this.db.transaction.findUnique({ where: { id } });
    return row ? toDomain(row) : undefined;
  }

  /** Every attempt under the reference (a handful: retries after failures), and the one the domain says answers. */
  async findByMerchantReference(merchantId: string, reference: string): Promise<Transaction | undefined> {
    const sql = sqlOn(this.db);
    const { rows } = await sql.executeQuery(attemptsUnder(sql, merchantId, reference));
    const answering = answeringAttempt(rows);
    return answering ? toDomain(answering) : undefined;
  }

  /** On the (merchantId, createdAt, id) and (merchantId, status, createdAt, id) indexes, newest first. */
  listForMerchant(
    merchantId: string,
    filter: MerchantTransactionFilter,
    page: PageRequest,
  ): Promise<Page<Transaction>> {
    return orderedPage(
      sqlOn(this.lists),
      'transactions',
      page,
      (db) => db.selectFrom('transactions').selectAll(),
      (w) =>
        w.and([
          w('merchantId', '=', merchantId),
          ...(filter.status === undefined ? [] : [w('status', '=', filter.status)]),
          ...(filter.from ? [w('createdAt', '>=', filter.from)] : []),
          ...(filter.to ? [w('createdAt', '<', filter.to)] : []),
        ]),
      toDomain,
      // A merchant's cursor is one of its own payments: another merchant's reads as unknown.
      (w) => w('merchantId', '=', merchantId),
    );
  }

  async listOpenUnchangedSince(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db.transaction.findMany({
      where: { status: { in: ['requesting', 'pending'] }, updatedAt: { lt: before } },
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }
}
