// Stands in for the Meta pixel's fbevents.js in tests.
new Image().src = 'https://www.facebook.com/tr?id=000000000000000&ev=PageView&noscript=0';
