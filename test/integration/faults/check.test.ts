import { matrixSuite } from './suite';

matrixSuite('check');
