import { VOCABULARIES, isDomainValue, normalise } from './normaliser';

describe('the normaliser of values people typed', () => {
  it.each([
    ['idType', ['Voters ID', 'voter-id', 'VOTER ID', "Voter's Card", 'voter_id'], 'voter_id'],
    ['idType', ['Ghana Card', 'GHANA-CARD', 'national id', 'NIA card'], 'ghana_card'],
    ['idType', ["Driver's Licence", 'driving license', 'DL'], 'drivers_license'],
    ['idType', ['SSNIT', 'ssnit card'], 'ssnit'],
    ['licenseClass', ['Cat. B', 'class b', 'B', 'b', 'Category B', 'Licence class B'], 'B'],
    ['gender', ['F', 'Female', 'FEMALE ', 'woman'], 'female'],
    ['gender', ['M', 'male', 'Man'], 'male'],
    ['gender', ['N/A', 'prefer not to say'], 'unspecified'],
    ['assemblyType', ['Metropolitan', 'Metropolitan Assembly', 'metro'], 'metropolitan'],
    ['assemblyType', ['Municipal Assembly (MA)', 'municipality'], 'municipal'],
    ['assemblyType', ['District Assembly', 'DISTRICT'], 'district'],
    ['role', ['Administrator', 'ADMIN', 'assembly admin'], 'admin'],
    ['role', ['Inspector', 'inspection officer'], 'inspector'],
    ['unionStatus', ['Active', ' ACTIVE '], 'active'],
    ['transactionStatus', ['paid', 'Successful', 'SUCCESS'], 'success'],
    ['transactionStatus', ['failure', 'Failed'], 'failed'],
    ['serviceType', ['on-demand', 'On Demand', 'Taxi'], 'taxi'],
    ['paymentMethod', ['mobile-money', 'Mobile Money', 'MoMo', 'mobile_money'], 'momo'],
    ['requestType', ['direct', 'Direct', 'mobile money'], 'mobile_money'],
    ['requestType', ['online-checkout', 'Online Checkout'], 'online_checkout'],
    ['vehicleType', ['Trotro', 'Mini Bus', 'mini-bus'], 'minibus'],
    ['vehicleType', ['Okada', 'Motor Bike'], 'motorcycle'],
    ['color', ['White', 'white', 'WHITE', '#fff', 'FFFFFF'], undefined],
  ] as const)('folds %s spellings %j to %s', (kind, spellings, value) => {
    for (const raw of spellings) {
      const placed = normalise(kind, raw);
      if (value === undefined) expect([raw, placed && isDomainValue(kind, placed)]).toEqual([raw, true]);
      else expect([raw, placed]).toEqual([raw, value]);
    }
  });

  it('names colours in hex, CSS names and the words vehicle owners use', () => {
    expect(normalise('color', 'Dark Blue')).toBe('#00008B');
    expect(normalise('color', 'silver')).toBe('#C0C0C0');
    expect(normalise('color', 'Ash')).toBe('#808080');
    expect(normalise('color', 'wine')).toBe('#722F37');
    expect(normalise('color', '#ffd700')).toBe('#FFD700');
    expect(normalise('color', 'ffd700')).toBe('#FFD700');
    expect(normalise('color', 'sparkly')).toBeUndefined();
  });

  it('places nothing it cannot tell, not even a name every object has', () => {
    for (const raw of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'Votr', '', 'Class Z'])
      for (const kind of [...Object.keys(VOCABULARIES), 'color'] as const)
        expect([kind, raw, normalise(kind as 'idType', raw)]).toEqual([kind, raw, undefined]);
  });

  it('maps every synonym to one of the domain’s values', () => {
    for (const [kind, vocabulary] of Object.entries(VOCABULARIES))
      for (const value of Object.values(vocabulary.synonyms))
        expect([kind, vocabulary.values]).toEqual([kind, expect.arrayContaining([value])]);
  });
});
