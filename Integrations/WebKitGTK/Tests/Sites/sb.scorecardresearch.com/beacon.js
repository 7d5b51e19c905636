// Stands in for comScore's beacon.js in tests.
new Image().src = 'https://sb.scorecardresearch.com/b?c1=2&c2=0000000';
