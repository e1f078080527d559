import { Injectable } from '@nestjs/common';
import { smsCommand, type InboundSms } from './hubtel-sms';
import { PublicChecksService } from './public-checks.service';

/** What an inbound SMS did: the command read, and whether an answer was texted. */
export interface InboundSmsResult {
  command: 'check' | 'stop' | 'start' | 'help';
  replied: boolean;
}

/** The SMS check (docs/ussd-sms.md): CHECK, STOP, START, HELP, each answered by SMS within the limits. */
@Injectable()
export class SmsCheckService {
  constructor(private readonly checks: PublicChecksService) {}

  async handle(sms: InboundSms): Promise<InboundSmsResult> {
    // The answer is in the language of the person whose record names the number (English for a stranger).
    const language = await this.checks.languageOf(sms.from);
    const command = smsCommand(sms.text);
    let text: string;
    switch (command.kind) {
      case 'check':
        text = await this.checks.vehicleVerdict(command.query, language);
        break;
      case 'stop':
        await this.checks.setOptedOut(sms.from, true);
        text = this.checks.text(language, 'sms.stopped');
        break;
      case 'start':
        await this.checks.setOptedOut(sms.from, false);
        text = this.checks.text(language, 'sms.started');
        break;
      case 'help':
        text = this.checks.text(language, 'sms.help');
        break;
    }
    return { command: command.kind, replied: await this.checks.reply(sms.from, text) };
  }
}
