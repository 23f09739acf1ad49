/** How a negative-suite case's status reads to a person, one fixed-width word. */
export function caseStatusLabel(status: 'pass' | 'fail' | 'not-run'): string {
  switch (status) {
    case 'pass':
      return 'pass   ';
    case 'fail':
      return 'FAIL   ';
    case 'not-run':
      return 'not-run';
  }
}
