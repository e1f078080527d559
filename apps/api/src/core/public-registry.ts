import type { Page, PageRequest } from '@transport/domain';

// The port of the public USSD and SMS checks (docs/ussd-sms.md), beside the app's other ports (ports.ts).

/** A vehicle reported by the public (USSD), for the assembly whose vehicle it is. No phone number is kept. */
export interface NewVehicleReport {
  id: string;
  plate: string;
  vehicleId?: string;
  assemblyId?: string;
  reason: string;
  channel: 'ussd' | 'sms';
  at: Date;
}

/** A stored report, as assembly staff list it. */
export type VehicleReportRecord = NewVehicleReport;

/** What a list of reports is narrowed to; every field optional. `assemblyId` is the caller's scope or their filter. */
export interface VehicleReportFilter {
  assemblyId?: string;
  vehicleId?: string;
  reason?: string;
  from?: Date;
  to?: Date;
}

/**
 * Port: what the public checks by USSD and SMS find (docs/ussd-sms.md): a vehicle by its plate's letters and digits or
 * by its sticker's check code, a driver by licence number; the reports the public makes; the numbers that texted STOP.
 */
export interface PublicRegistry {
  /** The vehicle whose plate has these letters and digits (registrationSearchKey), if any. */
  vehicleIdByPlateKey(key: string): Promise<string | undefined>;
  vehicleIdByCheckCode(code: string): Promise<string | undefined>;
  /** The vehicle's check code, given it `candidate` when it has none yet (kept for good); answers the one it has. */
  checkCodeOf(vehicleId: string, candidate: string): Promise<string>;
  /** The driver with this licence number (as stored: upper case), if any. */
  driverByLicence(licence: string): Promise<{ id: string; approved: boolean } | undefined>;
  /**
   * The language of the person whose record names this number (canonical +233… form): a driver's, else a vehicle
   * owner's; one who proved the number first. Undefined when no record names it.
   */
  languageOfPhone(phone: string): Promise<string | undefined>;
  /** Stores the report and its audit entry together (the actor is the channel, never the phone number). */
  addReport(report: NewVehicleReport): Promise<void>;
  /** The reports, newest first, narrowed by the filter, a page at a time (the cursor is a report's id). */
  reports(filter: VehicleReportFilter, page: PageRequest): Promise<Page<VehicleReportRecord>>;
  /** STOP (true) and START (false) from a phone number, at `at`. */
  setOptedOut(phone: string, optedOut: boolean, at: Date): Promise<void>;
}
