import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, SLOW_AFTER_MS } from './api';
import { words as w } from './i18n';

/** A date as people here read it (day, month in words, year), in Ghana's time. */
export function day(value: string | Date | null | undefined): string {
  if (!value) return w.vehicle.none;
  return new Date(value).toLocaleDateString(w.locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Africa/Accra',
  });
}

export function dateTime(value: string | Date): string {
  return new Date(value).toLocaleString(w.locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Africa/Accra',
  });
}

/** What a refusal is about: the record's name in words, how to reload it, and the form's labels of its fields. */
export interface ProblemContext {
  /** The record as people call it ("vehicle", "driver"): a conflict names it. */
  what?: string;
  /** Loads the record again, keeping what was typed in the forms (offered on a conflict). */
  reload?: () => void;
  /** The form's label of each API field name (`insuranceExpiryDate` → "Insurance ends"). */
  labels?: Record<string, string>;
}

/** The words of a refusal: what happened in the person's words, and each field named as the form labels it. */
export function ProblemMessage({
  error,
  what,
  reload,
  labels = {},
  retry,
}: { error: unknown; retry?: () => void } & ProblemContext) {
  const problem = error instanceof ApiProblem ? error : undefined;
  const code = problem?.problem.code;
  const fields = problem?.problem.errors ?? [];
  // The API names fields (insuranceExpiryDate) and checklist items (spareTire) as its contract does; people read them
  // as the form labels them.
  const named: Record<string, string> = { ...w.checklist, ...w.fieldLabels, ...labels };
  const inWords = (text: string) => text.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (name) => named[name] ?? name);
  const label = (field: string | undefined) => (field ? (named[field] ?? field) : undefined);
  const conflict = code === 'CONCURRENT_UPDATE';
  const coded = code ? w.errors.codes[code] : undefined;
  const detail =
    problem === undefined
      ? error instanceof Error
        ? error.message
        : String(error)
      : problem.status === 0
        ? w.errors.network
        : conflict
          ? w.errors.conflict(what ?? w.errors.record)
          : coded
            ? coded(label(fields[0]?.field ?? (problem.problem as { field?: string }).field) ?? '')
            : inWords(problem.problem.detail ?? (problem.status === 404 ? w.errors.notFound : w.errors.forbidden));
  const listed = coded || conflict ? [] : fields;
  return (
    <div class="alert error" role="alert">
      <p class="alert-title">{w.errors.title}</p>
      <p>{detail}</p>
      {listed.length > 0 && (
        <>
          <p>{w.errors.fields}</p>
          <ul>
            {listed.map((f) => (
              <li key={`${f.field}${f.message}`}>
                {named[f.field]
                  ? `${named[f.field]}: ${inWords(f.message.replace(f.field, '').trim())}`
                  : inWords(f.message)}
              </li>
            ))}
          </ul>
        </>
      )}
      {conflict && reload && (
        <button type="button" onClick={reload}>
          {w.errors.reload(what ?? w.errors.record)}
        </button>
      )}
      {problem?.status === 0 && retry && (
        <button type="button" onClick={retry}>
          {w.roadside.retry}
        </button>
      )}
    </div>
  );
}

/** The tone of what an action did: done (green), warn (a recorded failure, red words), info (kept, not yet done). */
export type Tone = 'done' | 'warn' | 'info';

export function Done({
  children,
  tone = 'done',
  focusRef,
}: {
  children: ComponentChildren;
  tone?: Tone;
  focusRef?: preact.Ref<HTMLParagraphElement>;
}) {
  return (
    <p class={`alert ${tone}`} role="status" tabIndex={focusRef ? -1 : undefined} ref={focusRef}>
      {children}
    </p>
  );
}

/** True once `active` has lasted SLOW_AFTER_MS (the connection is slow: say so), false again when it ends. */
export function useSlow(active: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setSlow(false);
    if (!active) return;
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [active]);
  return slow;
}

/** What an action did: success words, or words of a recorded outcome that is not a success (a failed inspection). */
export interface Outcome {
  words: string;
  tone?: Tone;
  /** Where to go next (the record just made). */
  link?: { href: string; words: string };
}

/**
 * What the last action on a screen did, kept under the screen's title: the form that did it may go away with the
 * change (an approved vehicle has no approval form), the words stay. The screen is keyed by its record, so another
 * record's screen starts without them.
 */
export function useNotice(): { notice: preact.JSX.Element | null; announce: (outcome: Outcome) => void } {
  const [said, setSaid] = useState<(Outcome & { at: number }) | undefined>();
  const ref = useRef<HTMLParagraphElement>(null);
  const placed = useRef<number | undefined>(undefined);
  // The form that did it may go away with the change (an approved vehicle has no approval form), taking the keyboard
  // focus with it to the page's start: the focus then goes to these words, once per announcement.
  useEffect(() => {
    if (!said || placed.current === said.at) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost && ref.current) {
      ref.current.focus();
      placed.current = said.at;
    }
  });
  return {
    notice: (
      <div aria-live="polite">
        {said && (
          <Done key={said.at} tone={said.tone} focusRef={ref}>
            {said.words}
          </Done>
        )}
      </div>
    ),
    announce: (outcome: Outcome) => setSaid({ ...outcome, at: Date.now() }),
  };
}

/**
 * One action's form: runs `action` on submit with the form's data, shows the API's refusal or the outcome's words, and
 * keeps the button disabled while the request is in flight (no double submits). After a success the form is reset (a
 * recorded renewal's date is not left in the field to be sent again) and the focus stays where it was; after a refusal
 * what was typed stays.
 */
export function ActionForm(props: {
  label: string;
  help?: string;
  submit: string;
  /** The success words, or the outcome the action answers with. */
  done: string;
  action: (data: FormData) => Promise<void | Outcome>;
  /** Where the outcome's words go (the screen's notice); without it they show under the form. */
  announce?: (outcome: Outcome) => void;
  /** How refusals name the record and its fields, and reload it on a conflict. */
  problem?: ProblemContext;
  children?: ComponentChildren;
  danger?: boolean;
}) {
  const [state, setState] = useState<{ busy?: boolean; error?: unknown; done?: Outcome }>({});
  const slow = useSlow(state.busy === true);
  // In flight: further submits are ignored. The button is marked aria-disabled, not disabled: a disabled button loses
  // the keyboard focus, which would then start again from the top of the page after every save.
  const busy = useRef(false);
  const id = props.label.toLowerCase().replace(/[^a-z]+/g, '-');
  const reload = props.problem?.reload;
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{props.label}</h2>
      {props.help && <p class="help">{props.help}</p>}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget as HTMLFormElement;
          if (busy.current) return;
          busy.current = true;
          setState({ busy: true });
          try {
            const outcome = (await props.action(new FormData(form))) ?? { words: props.done };
            form.reset();
            setState({ done: props.announce ? undefined : outcome });
            props.announce?.(outcome);
          } catch (error) {
            setState({ error });
          } finally {
            busy.current = false;
          }
        }}
      >
        {props.children}
        <button type="submit" class={props.danger ? 'danger' : 'primary'} aria-disabled={state.busy}>
          {props.submit}
        </button>
        {/* Progress at once, in words: on a weak signal an answer can take many seconds. */}
        {state.busy && (
          <p class="progress" role="status">
            {slow ? w.roadside.slowChange : w.roadside.sending}
          </p>
        )}
      </form>
      {state.error !== undefined && (
        <ProblemMessage
          error={state.error}
          {...props.problem}
          reload={
            reload &&
            (() => {
              setState({});
              reload();
            })
          }
        />
      )}
      {state.done && (
        <Done tone={state.done.tone}>
          {state.done.words} {state.done.link && <a href={state.done.link.href}>{state.done.link.words}</a>}
        </Done>
      )}
    </section>
  );
}

/** Loads data for a screen: the value, the refusal, and a way to load again after a change. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { value?: T; error?: unknown; reload: () => void } {
  const [state, setState] = useState<{ value?: T; error?: unknown }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    if (round > 0) setState((was) => (was.error === undefined ? was : {}));
    load().then(
      (value) => live && setState({ value }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}

/** A field someone is typing in: the focus stays there. */
const typingIn = (element: Element | null) =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;

/**
 * A screen's title: the page's h1, focused on arrival so keyboard and screen-reader users start there; unless the
 * person is already typing in one of the screen's fields (the effect runs up to a frame after the screen shows, and a
 * quick typist's or a scanner's keys after the first would otherwise go to the heading and be lost).
 */
export function Title({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    const screen = ref.current?.closest('main');
    if (!(typingIn(active) && screen?.contains(active))) ref.current?.focus();
    if (typeof children === 'string') document.title = `${children} · ${w.appName}`;
  }, [children]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function Loading() {
  const slow = useSlow(true);
  return (
    <p class="loading" role="status">
      {slow ? w.roadside.slowRead : w.loading}
    </p>
  );
}

/** A screen whose record could not be shown (not found, not allowed, no connection): a heading, then why. */
export function NotFound({ error, title, retry }: { error: unknown; title?: string; retry?: () => void }) {
  const noAnswer = error instanceof ApiProblem && error.status === 0;
  const missing = !(error instanceof ApiProblem) || error.status === 404;
  return (
    <>
      <Title>
        {noAnswer ? w.roadside.noAnswerTitle : missing ? w.errors.notFoundTitle : (title ?? w.errors.title)}
      </Title>
      <ProblemMessage error={error} retry={retry} />
      <p>
        <a href="#/">{w.errors.backToQueues}</a>
      </p>
    </>
  );
}

/** A phone-sized screen (under 48rem wide): one task per screen there. Follows the window as it is resized. */
export function useNarrow(): boolean {
  const query = '(max-width: 47.99rem)';
  const [narrow, setNarrow] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const changed = () => setNarrow(list.matches);
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, []);
  return narrow;
}
