import { dayTwoSuite } from './day-two-cells';

dayTwoSuite('shutdown');
