import type { components } from '@transport/api-client';
import { api, must, page } from '../api';

type Owner = components['schemas']['OwnerResponse'];
import { colourHex, VEHICLE_COLOURS } from '../colours';
import { words as w } from '../i18n';
import { ActionForm, Loading, ProblemMessage, Title, useLoad } from '../ui';

// Registering what comes to the assembly's desk: an owner, a vehicle of an owner, a driver. One form per screen (the
// address names it), each answered with a link to the new record. The API places the record in the person's assembly.

const ID_TYPES = ['ghana_card', 'passport', 'voter_id', 'drivers_license', 'ssnit'] as const;
const LICENSE_CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
const GENDERS = ['male', 'female', 'other', 'unspecified'] as const;
type Kind = 'owner' | 'vehicle' | 'driver';
const KINDS: Kind[] = ['owner', 'vehicle', 'driver'];

const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim();
const optional = (data: FormData, name: string) => text(data, name) || undefined;
/** A date input's day as the API's date-time (midnight UTC), or undefined when empty. */
const day = (data: FormData, name: string) => (text(data, name) ? `${text(data, name)}T00:00:00.000Z` : undefined);

export function Register({ kind }: { kind?: string }) {
  const chosen = KINDS.find((k) => k === kind);
  return (
    <>
      <Title>{chosen ? w.register.title(w.register[chosen]) : w.register.heading}</Title>
      <nav class="tabs" aria-label={w.register.heading}>
        {KINDS.map((k) => (
          <a key={k} href={`#/register/${k}`} aria-current={k === chosen ? 'page' : undefined}>
            {w.register[k]}
          </a>
        ))}
      </nav>
      {chosen === 'owner' && <OwnerForm />}
      {chosen === 'vehicle' && <VehicleForm />}
      {chosen === 'driver' && <DriverForm />}
      {!chosen && <p class="help">{w.register.intro}</p>}
    </>
  );
}

/** A labelled input, required unless said otherwise. */
function Field(props: {
  name: string;
  label: string;
  type?: 'text' | 'tel' | 'email' | 'date';
  optional?: boolean;
  list?: string;
}) {
  return (
    <>
      <label for={`register-${props.name}`}>
        {props.label}
        {props.optional ? ` ${w.register.optional}` : ''}
      </label>
      <input
        id={`register-${props.name}`}
        name={props.name}
        type={props.type ?? 'text'}
        required={!props.optional}
        list={props.list}
        autocomplete="off"
      />
    </>
  );
}

function Choice(props: { name: string; label: string; options: readonly string[]; words: Record<string, string> }) {
  return (
    <>
      <label for={`register-${props.name}`}>{props.label}</label>
      <select id={`register-${props.name}`} name={props.name} required>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {props.words[o] ?? o}
          </option>
        ))}
      </select>
    </>
  );
}

function OwnerForm() {
  return (
    <>
      <ActionForm
        label={w.register.owner}
        submit={w.register.submit(w.register.owner)}
        done={w.register.done}
        action={async (data) => {
          const owner = await must(
            api.POST('/vehicles/owner/add', {
              body: {
                name: text(data, 'name'),
                phone: text(data, 'phone'),
                email: text(data, 'email'),
                idType: text(data, 'idType') as (typeof ID_TYPES)[number],
                idNumber: text(data, 'idNumber'),
              },
            }),
          );
          return {
            words: w.register.ownerDone(owner.name),
            link: { href: '#/register/vehicle', words: w.register.addVehicle },
          };
        }}
      >
        <Field name="name" label={w.driver.name} />
        <Field name="phone" label={w.driver.phone} type="tel" />
        <Field name="email" label={w.driver.email} type="email" />
        <Choice name="idType" label={w.register.idType} options={ID_TYPES} words={w.register.idTypes} />
        <Field name="idNumber" label={w.register.idNumber} />
      </ActionForm>
    </>
  );
}

function VehicleForm() {
  const owners = useLoad(() => page<Owner>(api.GET('/vehicles/owner/all', { params: { query: { limit: 100 } } })), []);
  if (owners.error !== undefined) return <ProblemMessage error={owners.error} retry={owners.reload} />;
  if (!owners.value) return <Loading />;
  return (
    <>
      <ActionForm
        label={w.register.vehicle}
        submit={w.register.submit(w.register.vehicle)}
        done={w.register.done}
        action={async (data) => {
          const vehicle = await must(
            api.POST('/vehicles/add', {
              body: {
                ownerID: text(data, 'ownerID'),
                registrationNumber: text(data, 'registrationNumber'),
                make: optional(data, 'make'),
                model: optional(data, 'model'),
                color: optional(data, 'color') && colourHex(text(data, 'color')),
                roadWorthyExpiryDate: day(data, 'roadWorthy'),
                insuranceExpiryDate: day(data, 'insurance'),
              },
            }),
          );
          return {
            words: w.register.vehicleDone(vehicle.registrationNumber ?? ''),
            link: { href: `#/vehicles/${vehicle._id}`, words: w.register.open },
          };
        }}
      >
        <label for="register-ownerID">{w.register.ownerOf}</label>
        <select id="register-ownerID" name="ownerID" required>
          {owners.value.items.map((o) => (
            <option key={o._id} value={o._id}>
              {o.name} ({o.phone})
            </option>
          ))}
        </select>
        <Field name="registrationNumber" label={w.vehicle.registration} />
        <Field name="make" label={w.vehicle.makeOnly} optional />
        <Field name="model" label={w.vehicle.model} optional />
        <Field name="color" label={w.vehicle.color} optional list="register-colours" />
        <datalist id="register-colours">
          {VEHICLE_COLOURS.map(([hex, key]) => (
            <option key={hex} value={w.colours[key]} />
          ))}
        </datalist>
        <Field name="roadWorthy" label={w.vehicle.roadWorthy} type="date" optional />
        <Field name="insurance" label={w.vehicle.insurance} type="date" optional />
      </ActionForm>
    </>
  );
}

function DriverForm() {
  return (
    <>
      <ActionForm
        label={w.register.driver}
        help={w.register.driverHelp}
        submit={w.register.submit(w.register.driver)}
        done={w.register.done}
        action={async (data) => {
          const { payload: driver, activationKeySent } = await must(
            api.POST('/drivers/add', {
              body: {
                name: text(data, 'name'),
                phone: text(data, 'phone'),
                email: text(data, 'email'),
                license: text(data, 'license'),
                licenseClass: text(data, 'licenseClass') as (typeof LICENSE_CLASSES)[number],
                licenseIssueDate: day(data, 'licenseIssueDate') ?? '',
                licenseExpiry: day(data, 'licenseExpiry') ?? '',
                idType: text(data, 'idType') as (typeof ID_TYPES)[number],
                idNumber: text(data, 'idNumber'),
                gender: text(data, 'gender') as (typeof GENDERS)[number],
              },
            }),
          );
          return {
            words: activationKeySent ? w.register.driverDone(driver.name) : w.register.driverNoKey(driver.name),
            link: { href: `#/drivers/${driver._id}`, words: w.register.open },
          };
        }}
      >
        <Field name="name" label={w.driver.name} />
        <Field name="phone" label={w.driver.phone} type="tel" />
        <Field name="email" label={w.driver.email} type="email" />
        <Choice name="gender" label={w.register.gender} options={GENDERS} words={w.register.genders} />
        <Field name="license" label={w.driver.license} />
        <Choice name="licenseClass" label={w.driver.licenseClass} options={LICENSE_CLASSES} words={{}} />
        <Field name="licenseIssueDate" label={w.register.licenseIssued} type="date" />
        <Field name="licenseExpiry" label={w.driver.licenseExpiry} type="date" />
        <Choice name="idType" label={w.register.idType} options={ID_TYPES} words={w.register.idTypes} />
        <Field name="idNumber" label={w.register.idNumber} />
      </ActionForm>
    </>
  );
}
