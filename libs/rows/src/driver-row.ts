import type { DriverState } from '@transport/domain';

/** A driver's `drivers` row; an absent checklist (`undefined`) leaves the column as it is on an update. */
export function driverRow(s: DriverState) {
  return {
    id: s.id,
    name: s.name,
    phone: s.phone,
    email: s.email,
    license: s.license,
    licenseClass: s.licenseClass,
    licenseExpiry: s.licenseExpiry,
    licenseIssueDate: s.licenseIssueDate,
    idType: s.idType,
    idNumber: s.idNumber,
    gender: s.gender,
    online: s.online,
    busy: s.busy,
    verified: s.verified,
    approved: s.approved,
    approvalChecklist: s.approvalChecklist ? { ...s.approvalChecklist } : undefined,
    approvedBy: s.approvedBy ?? null,
    dateApproved: s.dateApproved ?? null,
    revocationReason: s.revocation?.reason ?? null,
    revokedBy: s.revocation?.revokedBy ?? null,
    dateRevoked: s.revocation?.dateRevoked ?? null,
    phoneSetBy: s.phoneSetBy ?? null,
    emailSetBy: s.emailSetBy ?? null,
    registeredBy: s.registeredBy ?? null,
    activationKeyHash: s.activationKeyHash,
    activationAttempts: s.activationAttempts,
    activationKeyExpiresAt: s.activationKeyExpiresAt,
    activationTries: Object.fromEntries(
      Object.entries(s.activationTries).map(([from, t]) => [
        from,
        { failures: t.failures, retryAt: t.retryAt.toISOString() },
      ]),
    ),
    dateActivated: s.dateActivated ?? null,
    ownerId: s.ownerId ?? null,
    walletAccount: s.walletAccount ?? null,
    assemblyId: s.assemblyId ?? null,
    ratingTotal: s.ratingTotal,
    ratingCount: s.ratingCount,
    version: s.version,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
