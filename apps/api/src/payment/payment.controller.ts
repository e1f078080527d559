import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { CommonErrors } from '@transport/domain';
import { REPOSITORIES } from '../api/tokens';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { TransactionDoc } from './transaction.openapi';
import { toTransactionResponse, type TransactionResponse } from './transaction.response';

export class CheckTransactionQuery {
  @ApiProperty({ description: 'The merchant reference of the transaction.', example: 'TRIP-TKT-0001' })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'reference must be 1 to 64 letters, digits, dots, underscores, colons or hyphens' })
  reference!: string;
}

@ApiTags('payment')
@ApiSecurity('apiKey')
@Controller('payment')
export class PaymentController {
  constructor(@Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts) {}

  @Get('check_transaction')
  @Roles('merchant')
  @ApiOperation({
    summary: 'Transaction status (operation 9)',
    description:
      'On the payment base URL, with a merchant key. A merchant sees only its own transactions: another merchant\'s reference is a 404, exactly like an unknown one. ' +
      'status is pending, success or failed. requestInfo is the provider\'s answer to the payment request (ResponseCode 0001: pending, a callback will follow); ' +
      'callBackInfo and callBackTime are present once the final callback has arrived (ResponseCode 0000: success). Amounts are cedis.',
  })
  @ApiOkResponse({ type: TransactionDoc })
  @ApiProblems(400, 401, 403, 404)
  async check(@Query() query: CheckTransactionQuery, @CurrentPrincipal() principal: Principal): Promise<TransactionResponse> {
    const transaction = await this.repos.transactions.findByMerchantReference(principal.principalId, query.reference);
    if (!transaction) throw CommonErrors.notFound('transaction', `reference ${query.reference}`);
    return toTransactionResponse(transaction.toState());
  }
}
