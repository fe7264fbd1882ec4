import { matrixSuite } from './suite';

matrixSuite('delete');
