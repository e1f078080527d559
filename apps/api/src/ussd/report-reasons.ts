/** Why the public reports a vehicle, by the digit typed on the USSD menu (ussd.askReportReason lists them in order). */
export const VEHICLE_REPORT_REASONS = [
  'no_sticker',
  'overloading',
  'dangerous_driving',
  'overcharging',
  'other',
] as const;
export type VehicleReportReason = (typeof VEHICLE_REPORT_REASONS)[number];

/** The reason of a typed digit (1 to 5), or undefined. */
export function reportReason(typed: string): VehicleReportReason | undefined {
  const n = /^[1-9]$/.test(typed.trim()) ? Number(typed.trim()) : 0;
  return VEHICLE_REPORT_REASONS[n - 1];
}
